CREATE TABLE `auth_token` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`kind` text NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `auth_token_hash_uq` ON `auth_token` (`token_hash`);--> statement-breakpoint
CREATE INDEX `auth_token_user_idx` ON `auth_token` (`user_id`);--> statement-breakpoint
CREATE TABLE `company` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`address` text DEFAULT '' NOT NULL,
	`code` text NOT NULL,
	`abn` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`billing_type` text DEFAULT 'prepaid' NOT NULL,
	`currency` text DEFAULT 'AUD' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `company_code_uq` ON `company` (`code`);--> statement-breakpoint
CREATE TABLE `email_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`to` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`sent_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `password_reset` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `password_reset_hash_uq` ON `password_reset` (`token_hash`);--> statement-breakpoint
CREATE TABLE `user` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`role` text NOT NULL,
	`company_id` integer,
	`password_hash` text,
	`settings` text DEFAULT '{}' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_email_uq` ON `user` (`email`);--> statement-breakpoint
CREATE INDEX `user_role_idx` ON `user` (`role`);--> statement-breakpoint
CREATE INDEX `user_company_idx` ON `user` (`company_id`);--> statement-breakpoint
CREATE TABLE `area` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`suburb_id` integer NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`suburb_id`) REFERENCES `suburb`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `area_suburb_idx` ON `area` (`suburb_id`);--> statement-breakpoint
CREATE TABLE `city` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`state_id` integer NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`state_id`) REFERENCES `state`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `city_state_idx` ON `city` (`state_id`);--> statement-breakpoint
CREATE TABLE `country` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`iso2` text DEFAULT '' NOT NULL,
	`currency` text DEFAULT '' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `pincode` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`suburb_id` integer NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`suburb_id`) REFERENCES `suburb`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `pincode_code_idx` ON `pincode` (`code`);--> statement-breakpoint
CREATE INDEX `pincode_suburb_idx` ON `pincode` (`suburb_id`);--> statement-breakpoint
CREATE TABLE `state` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`code` text DEFAULT '' NOT NULL,
	`country_id` integer NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`country_id`) REFERENCES `country`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `state_country_idx` ON `state` (`country_id`);--> statement-breakpoint
CREATE TABLE `street` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`area_id` integer NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`area_id`) REFERENCES `area`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `street_area_idx` ON `street` (`area_id`);--> statement-breakpoint
CREATE TABLE `suburb` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`city_id` integer,
	`state_id` integer NOT NULL,
	`zone_id` integer,
	`postcode` text DEFAULT '' NOT NULL,
	`latitude` real,
	`longitude` real,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`city_id`) REFERENCES `city`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`state_id`) REFERENCES `state`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`zone_id`) REFERENCES `zone`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `suburb_zone_idx` ON `suburb` (`zone_id`);--> statement-breakpoint
CREATE INDEX `suburb_postcode_idx` ON `suburb` (`postcode`);--> statement-breakpoint
CREATE TABLE `zone` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`code` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`warehouse_id` integer,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `failed_delivery_status` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `package_type` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`package_type` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `pickup_point` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`person_name` text NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`address` text NOT NULL,
	`additional_detail` text DEFAULT '' NOT NULL,
	`suburb` text DEFAULT '' NOT NULL,
	`state` text DEFAULT '' NOT NULL,
	`pincode` text DEFAULT '' NOT NULL,
	`company_id` integer,
	`latitude` real,
	`longitude` real,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `warehouse` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`street_address` text NOT NULL,
	`additional_details` text DEFAULT '' NOT NULL,
	`suburb` text DEFAULT '' NOT NULL,
	`state` text DEFAULT '' NOT NULL,
	`postcode` text DEFAULT '' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `package_event` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`package_id` integer NOT NULL,
	`action` text NOT NULL,
	`from_status` text,
	`to_status` text,
	`actor_id` integer,
	`device_id` text,
	`occurred_at` integer NOT NULL,
	`received_at` integer NOT NULL,
	`latitude` real,
	`longitude` real,
	`note` text,
	`data` text,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`actor_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `package_event_pkg_idx` ON `package_event` (`package_id`,`id`);--> statement-breakpoint
CREATE INDEX `package_event_actor_idx` ON `package_event` (`actor_id`,`received_at`);--> statement-breakpoint
CREATE TABLE `package_failure` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`package_id` integer NOT NULL,
	`status_id` integer NOT NULL,
	`name` text NOT NULL,
	`note` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `package_failure_pkg_idx` ON `package_failure` (`package_id`);--> statement-breakpoint
CREATE TABLE `package` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`hawb` text NOT NULL,
	`customer_code` text,
	`customer_name` text,
	`customer_address` text,
	`customer_phone` text,
	`postcode` integer,
	`postcode_name` text,
	`description_of_goods` text,
	`count` integer,
	`landed` integer DEFAULT false NOT NULL,
	`company_id` integer,
	`weight` real,
	`price` real,
	`shipper_code` text,
	`shipper_name` text,
	`shipper_address` text,
	`shipper_city` text,
	`shipper_state` text,
	`shipper_postcode` text,
	`shipper_country` text,
	`origin` text,
	`port` text,
	`total_value` text,
	`goods_currency` text,
	`sac` integer DEFAULT false NOT NULL,
	`fr_reference` text,
	`sub_master` text,
	`pkg_type` text,
	`country_of_origin` text,
	`cyber_vendor_account` text,
	`customs_code` text,
	`cyber_importer_account` text,
	`importer_abn` text,
	`importer_cac` text,
	`cyber_supplier_account` text,
	`supplier_customs_code` text,
	`is_scanned` integer DEFAULT false NOT NULL,
	`parcel_no` integer,
	`sequence_no` integer,
	`status` text DEFAULT 'created' NOT NULL,
	`zone_id` integer,
	`suburb_id` integer,
	`state_id` integer,
	`country_id` integer,
	`height` real,
	`length` real,
	`width` real,
	`volume_weighted` real,
	`assigned_to_id` integer,
	`route_id` integer,
	`pickup_point_id` integer,
	`warehouse_id` integer,
	`delivery_date` text,
	`latitude` real,
	`longitude` real,
	`attempts` integer DEFAULT 0 NOT NULL,
	`flagged` integer DEFAULT false NOT NULL,
	`flag_reason` text,
	`delivered_at` integer,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`zone_id`) REFERENCES `zone`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`suburb_id`) REFERENCES `suburb`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`state_id`) REFERENCES `state`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`country_id`) REFERENCES `country`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`assigned_to_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `package_hawb_uq` ON `package` (`hawb`);--> statement-breakpoint
CREATE INDEX `package_assigned_status_idx` ON `package` (`assigned_to_id`,`status`);--> statement-breakpoint
CREATE INDEX `package_company_idx` ON `package` (`company_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `package_status_idx` ON `package` (`status`);--> statement-breakpoint
CREATE INDEX `package_zone_idx` ON `package` (`zone_id`);--> statement-breakpoint
CREATE INDEX `package_route_idx` ON `package` (`route_id`);--> statement-breakpoint
CREATE TABLE `change_log` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`entity` text NOT NULL,
	`entity_id` integer NOT NULL,
	`op` text NOT NULL,
	`driver_id` integer,
	`company_id` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `change_log_driver_idx` ON `change_log` (`driver_id`,`seq`);--> statement-breakpoint
CREATE INDEX `change_log_entity_idx` ON `change_log` (`entity`,`seq`);--> statement-breakpoint
CREATE TABLE `device` (
	`device_id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`last_seq` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `idempotency_key` (
	`key` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`device_id` text,
	`device_seq` integer,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`body_hash` text NOT NULL,
	`status` integer NOT NULL,
	`response` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `idempotency_created_idx` ON `idempotency_key` (`created_at`);--> statement-breakpoint
CREATE TABLE `stored_file` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`client_id` text,
	`sha256` text NOT NULL,
	`mime` text NOT NULL,
	`size` integer NOT NULL,
	`kind` text NOT NULL,
	`owner_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `stored_file_client_uq` ON `stored_file` (`owner_id`,`client_id`);--> statement-breakpoint
CREATE INDEX `stored_file_sha_idx` ON `stored_file` (`sha256`);