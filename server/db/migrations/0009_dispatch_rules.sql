CREATE TABLE `dispatch_setting` (
	`id` integer PRIMARY KEY NOT NULL,
	`rules` text NOT NULL,
	`updated_at` integer NOT NULL,
	`updated_by` integer,
	FOREIGN KEY (`updated_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `driver_skill` (
	`driver_id` integer PRIMARY KEY NOT NULL,
	`skills` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`driver_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `driver_shift` ADD `break_minutes` integer;--> statement-breakpoint
ALTER TABLE `driver_shift` ADD `break_after_min` integer;--> statement-breakpoint
ALTER TABLE `driver_shift` ADD `break_after_max` integer;--> statement-breakpoint
ALTER TABLE `package_window` ADD `skills` text;--> statement-breakpoint
ALTER TABLE `vehicle` ADD `skills` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `vehicle` ADD `cost_per_km` real;--> statement-breakpoint
ALTER TABLE `vehicle` ADD `cost_per_hour` real;--> statement-breakpoint
ALTER TABLE `vehicle` ADD `cost_fixed` real;