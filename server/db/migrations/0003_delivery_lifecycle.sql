CREATE TABLE `delivery_attempt` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`package_id` integer NOT NULL,
	`attempt_no` integer NOT NULL,
	`driver_id` integer,
	`recorded_by` integer,
	`failed_status_id` integer,
	`reason` text NOT NULL,
	`note` text,
	`photo_file_id` integer,
	`occurred_at` integer NOT NULL,
	`received_at` integer NOT NULL,
	`latitude` real,
	`longitude` real,
	`forced` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`driver_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`recorded_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`photo_file_id`) REFERENCES `stored_file`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `delivery_attempt_pkg_idx` ON `delivery_attempt` (`package_id`,`attempt_no`);--> statement-breakpoint
CREATE INDEX `delivery_attempt_driver_idx` ON `delivery_attempt` (`driver_id`,`received_at`);--> statement-breakpoint
CREATE TABLE `delivery_record` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`package_id` integer NOT NULL,
	`driver_id` integer,
	`recipient_name` text,
	`note` text,
	`occurred_at` integer NOT NULL,
	`received_at` integer NOT NULL,
	`latitude` real,
	`longitude` real,
	`forced` integer DEFAULT false NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`driver_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `delivery_record_pkg_uq` ON `delivery_record` (`package_id`);--> statement-breakpoint
CREATE INDEX `delivery_record_driver_idx` ON `delivery_record` (`driver_id`,`received_at`);--> statement-breakpoint
CREATE TABLE `package_photo` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`package_id` integer NOT NULL,
	`slot` text NOT NULL,
	`file_id` integer NOT NULL,
	`added_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`file_id`) REFERENCES `stored_file`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`added_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `package_photo_slot_uq` ON `package_photo` (`package_id`,`slot`);--> statement-breakpoint
CREATE TABLE `scan_exception` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`action` text NOT NULL,
	`actor_id` integer,
	`device_id` text,
	`occurred_at` integer NOT NULL,
	`received_at` integer NOT NULL,
	`latitude` real,
	`longitude` real,
	`note` text,
	`resolved` integer DEFAULT false NOT NULL,
	`resolved_by` integer,
	`resolved_at` integer,
	`resolution_note` text,
	FOREIGN KEY (`actor_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`resolved_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `scan_exception_open_idx` ON `scan_exception` (`resolved`,`received_at`);--> statement-breakpoint
CREATE INDEX `scan_exception_code_idx` ON `scan_exception` (`code`);