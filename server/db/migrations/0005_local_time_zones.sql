CREATE TABLE `depot_time_zone` (
	`warehouse_id` integer PRIMARY KEY NOT NULL,
	`time_zone` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`warehouse_id`) REFERENCES `warehouse`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `business_profile` ADD `time_zone` text;