CREATE TABLE `route` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`date` text NOT NULL,
	`kind` text DEFAULT 'delivery' NOT NULL,
	`status` text DEFAULT 'planned' NOT NULL,
	`driver_id` integer,
	`warehouse_id` integer,
	`start_latitude` real,
	`start_longitude` real,
	`total_distance_m` real,
	`optimized_at` integer,
	`started_at` integer,
	`completed_at` integer,
	`created_by` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`driver_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`warehouse_id`) REFERENCES `warehouse`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `route_driver_status_idx` ON `route` (`driver_id`,`status`);--> statement-breakpoint
CREATE INDEX `route_date_idx` ON `route` (`date`);--> statement-breakpoint
CREATE TABLE `driver_position` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`driver_id` integer NOT NULL,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`accuracy` real,
	`occurred_at` integer NOT NULL,
	`received_at` integer NOT NULL,
	`device_id` text,
	FOREIGN KEY (`driver_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `driver_position_driver_time_uq` ON `driver_position` (`driver_id`,`occurred_at`);