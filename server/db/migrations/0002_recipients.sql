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
