CREATE TABLE `delivery_rating` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`package_id` integer NOT NULL,
	`driver_id` integer,
	`company_id` integer,
	`rating` integer NOT NULL,
	`comment` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`driver_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `delivery_rating_package_uq` ON `delivery_rating` (`package_id`);--> statement-breakpoint
CREATE INDEX `delivery_rating_driver_idx` ON `delivery_rating` (`driver_id`);--> statement-breakpoint
CREATE TABLE `message_opt_out` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`address` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `message_opt_out_uq` ON `message_opt_out` (`company_id`,`address`);--> statement-breakpoint
CREATE TABLE `message_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel` text NOT NULL,
	`to` text NOT NULL,
	`kind` text NOT NULL,
	`subject` text,
	`body` text,
	`data` text,
	`company_id` integer,
	`package_id` integer,
	`dedupe_key` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`claimed_at` integer,
	`last_error` text,
	`provider_id` text,
	`sent_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `message_outbox_dedupe_uq` ON `message_outbox` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `message_outbox_due_idx` ON `message_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `message_outbox_package_idx` ON `message_outbox` (`package_id`);--> statement-breakpoint
CREATE TABLE `package_recipient` (
	`package_id` integer PRIMARY KEY NOT NULL,
	`token` text NOT NULL,
	`email` text,
	`instructions` text,
	`instructions_at` integer,
	`opted_out_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `package_recipient_token_uq` ON `package_recipient` (`token`);--> statement-breakpoint
CREATE TABLE `recipient_settings` (
	`company_id` integer PRIMARY KEY NOT NULL,
	`events` text NOT NULL,
	`channels` text NOT NULL,
	`sender_name` text,
	`templates` text DEFAULT '{}' NOT NULL,
	`logo_file_id` integer,
	`stops_away` integer DEFAULT 2 NOT NULL,
	`reschedule_days` integer DEFAULT 7 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`logo_file_id`) REFERENCES `stored_file`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `company_service_time` (
	`company_id` integer PRIMARY KEY NOT NULL,
	`service_s` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `depot_position` (
	`warehouse_id` integer PRIMARY KEY NOT NULL,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`warehouse_id`) REFERENCES `warehouse`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `dispatch_plan` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`date` text NOT NULL,
	`status` text NOT NULL,
	`request` text NOT NULL,
	`proposal` text,
	`message` text,
	`time_limit_ms` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	`committed_at` integer,
	`created_by` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `driver_shift` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`driver_id` integer NOT NULL,
	`date` text NOT NULL,
	`start_time` text NOT NULL,
	`end_time` text NOT NULL,
	`start_warehouse_id` integer,
	`end_warehouse_id` integer,
	`vehicle_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`driver_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`start_warehouse_id`) REFERENCES `warehouse`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`end_warehouse_id`) REFERENCES `warehouse`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`vehicle_id`) REFERENCES `vehicle`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `driver_shift_driver_date_uq` ON `driver_shift` (`driver_id`,`date`);--> statement-breakpoint
CREATE INDEX `driver_shift_date_idx` ON `driver_shift` (`date`);--> statement-breakpoint
CREATE TABLE `package_window` (
	`package_id` integer PRIMARY KEY NOT NULL,
	`window_start` text,
	`window_end` text,
	`service_s` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `stop_eta` (
	`package_id` integer PRIMARY KEY NOT NULL,
	`route_id` integer NOT NULL,
	`eta_at` integer NOT NULL,
	`planned_at` integer NOT NULL,
	`wait_s` integer DEFAULT 0 NOT NULL,
	`late` integer DEFAULT false NOT NULL,
	`computed_at` integer NOT NULL,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `stop_eta_route_idx` ON `stop_eta` (`route_id`);--> statement-breakpoint
CREATE TABLE `vehicle` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`type` text DEFAULT 'van' NOT NULL,
	`registration` text DEFAULT '' NOT NULL,
	`capacity_kg` real,
	`capacity_m3` real,
	`capacity_parcels` integer,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
