CREATE TABLE `route_leg` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`route_id` integer NOT NULL,
	`package_id` integer NOT NULL,
	`from_package_id` integer,
	`seq` integer NOT NULL,
	`duration_s` real NOT NULL,
	`distance_m` real,
	`source` text NOT NULL,
	`planned_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `route_leg_route_package_uq` ON `route_leg` (`route_id`,`package_id`);--> statement-breakpoint
CREATE INDEX `route_leg_package_idx` ON `route_leg` (`package_id`);