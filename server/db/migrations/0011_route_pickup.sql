CREATE TABLE `route_pickup` (
	`package_id` integer PRIMARY KEY NOT NULL,
	`route_id` integer NOT NULL,
	`sequence_no` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `route_pickup_route_idx` ON `route_pickup` (`route_id`);