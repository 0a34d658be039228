CREATE TABLE `refused_delivery` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`package_id` integer NOT NULL,
	`driver_id` integer NOT NULL,
	`device_id` text,
	`code` text NOT NULL,
	`message` text NOT NULL,
	`status` text NOT NULL,
	`recipient_name` text,
	`note` text,
	`occurred_at` integer NOT NULL,
	`received_at` integer NOT NULL,
	`latitude` real,
	`longitude` real,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`driver_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `refused_delivery_pkg_idx` ON `refused_delivery` (`package_id`,`id`);--> statement-breakpoint
CREATE INDEX `refused_delivery_driver_idx` ON `refused_delivery` (`driver_id`,`received_at`);--> statement-breakpoint
CREATE TABLE `refused_delivery_file` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`refused_id` integer NOT NULL,
	`slot` text NOT NULL,
	`file_id` integer NOT NULL,
	FOREIGN KEY (`refused_id`) REFERENCES `refused_delivery`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`file_id`) REFERENCES `stored_file`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `refused_delivery_file_idx` ON `refused_delivery_file` (`refused_id`);