CREATE TABLE `company_depot_address` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`street_address` text NOT NULL,
	`additional_details` text DEFAULT '' NOT NULL,
	`suburb` text DEFAULT '' NOT NULL,
	`state` text DEFAULT '' NOT NULL,
	`postcode` text DEFAULT '' NOT NULL,
	`contact_phone` text DEFAULT '' NOT NULL,
	`latitude` real,
	`longitude` real,
	`is_default` integer DEFAULT false NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `company_depot_address_company_idx` ON `company_depot_address` (`company_id`);--> statement-breakpoint
CREATE TABLE `company_secret` (
	`company_id` integer PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `permission_group` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`permissions` text DEFAULT '[]' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `permission_group_name_uq` ON `permission_group` (`name`);--> statement-breakpoint
CREATE TABLE `server_secret` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `support_ticket` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`driver_id` integer NOT NULL,
	`subject` text NOT NULL,
	`message` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`response` text DEFAULT '' NOT NULL,
	`closed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`driver_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `support_ticket_driver_idx` ON `support_ticket` (`driver_id`);--> statement-breakpoint
CREATE INDEX `support_ticket_status_idx` ON `support_ticket` (`status`);--> statement-breakpoint
CREATE TABLE `user_permission_group` (
	`user_id` integer NOT NULL,
	`group_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `group_id`),
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`group_id`) REFERENCES `permission_group`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `user_permission_group_group_idx` ON `user_permission_group` (`group_id`);--> statement-breakpoint
ALTER TABLE `user` ADD `package_columns` text;--> statement-breakpoint
ALTER TABLE `user` ADD `profile_image_file_id` integer REFERENCES stored_file(id);--> statement-breakpoint
ALTER TABLE `user` ADD `driving_license_file_id` integer REFERENCES stored_file(id);--> statement-breakpoint
ALTER TABLE `user` ADD `police_check_file_id` integer REFERENCES stored_file(id);--> statement-breakpoint
ALTER TABLE `user` ADD `passport_file_id` integer REFERENCES stored_file(id);--> statement-breakpoint
ALTER TABLE `user` ADD `visa_file_id` integer REFERENCES stored_file(id);