CREATE TABLE `auth_token` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`kind` text NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`device_id` text,
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
	`package_columns` text,
	`profile_image_file_id` integer,
	`driving_license_file_id` integer,
	`police_check_file_id` integer,
	`passport_file_id` integer,
	`visa_file_id` integer,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`profile_image_file_id`) REFERENCES `stored_file`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`driving_license_file_id`) REFERENCES `stored_file`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`police_check_file_id`) REFERENCES `stored_file`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`passport_file_id`) REFERENCES `stored_file`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`visa_file_id`) REFERENCES `stored_file`(`id`) ON UPDATE no action ON DELETE no action
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
CREATE UNIQUE INDEX `pincode_code_suburb_uq` ON `pincode` (`code`,`suburb_id`);--> statement-breakpoint
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
	`latitude` real,
	`longitude` real,
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
CREATE INDEX `suburb_state_idx` ON `suburb` (`state_id`);--> statement-breakpoint
CREATE INDEX `suburb_city_idx` ON `suburb` (`city_id`);--> statement-breakpoint
CREATE TABLE `zone` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`code` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`warehouse_id` integer,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`warehouse_id`) REFERENCES `warehouse`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `zone_warehouse_idx` ON `zone` (`warehouse_id`);--> statement-breakpoint
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
CREATE INDEX `package_zone_status_idx` ON `package` (`zone_id`,`status`,`deleted_at`);--> statement-breakpoint
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
CREATE INDEX `change_log_record_idx` ON `change_log` (`entity`,`entity_id`,`seq`);--> statement-breakpoint
CREATE INDEX `change_log_company_idx` ON `change_log` (`company_id`,`seq`);--> statement-breakpoint
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
CREATE INDEX `stored_file_sha_idx` ON `stored_file` (`sha256`);--> statement-breakpoint
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
CREATE INDEX `scan_exception_code_idx` ON `scan_exception` (`code`);--> statement-breakpoint
CREATE TABLE `delivery_rate` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`company_id` integer,
	`zone_id` integer,
	`package_type_id` integer,
	`unit_id` integer,
	`min_weight` real DEFAULT 0 NOT NULL,
	`max_weight` real,
	`base_cents` integer NOT NULL,
	`per_unit_cents` integer DEFAULT 0 NOT NULL,
	`currency` text NOT NULL,
	`volumetric_divisor` integer DEFAULT 5000 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`zone_id`) REFERENCES `zone`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`package_type_id`) REFERENCES `package_type`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`unit_id`) REFERENCES `unit_of_measurement`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `delivery_rate_company_idx` ON `delivery_rate` (`company_id`);--> statement-breakpoint
CREATE INDEX `delivery_rate_zone_idx` ON `delivery_rate` (`zone_id`);--> statement-breakpoint
CREATE TABLE `driver_rate` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`driver_id` integer,
	`zone_id` integer,
	`package_type_id` integer,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`effective_from` integer NOT NULL,
	`effective_to` integer,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`driver_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`zone_id`) REFERENCES `zone`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`package_type_id`) REFERENCES `package_type`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `driver_rate_driver_idx` ON `driver_rate` (`driver_id`);--> statement-breakpoint
CREATE TABLE `invoice` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`number` text NOT NULL,
	`company_id` integer NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`currency` text NOT NULL,
	`period_from` integer,
	`period_to` integer,
	`total_cents` integer NOT NULL,
	`issued_at` integer NOT NULL,
	`paid_at` integer,
	`payment_txn_id` integer,
	`voided_at` integer,
	`void_reason` text DEFAULT '' NOT NULL,
	`corrects_invoice_id` integer,
	`due_at` integer,
	`gst_rate_bp` integer,
	`prices_include_gst` integer,
	`parties` text,
	`created_by` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoice_number_uq` ON `invoice` (`number`);--> statement-breakpoint
CREATE INDEX `invoice_company_idx` ON `invoice` (`company_id`,`issued_at`);--> statement-breakpoint
CREATE TABLE `invoice_counter` (
	`year` integer PRIMARY KEY NOT NULL,
	`last` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `invoice_line` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`invoice_id` integer NOT NULL,
	`txn_id` integer NOT NULL,
	`package_id` integer,
	`description` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoice`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`txn_id`) REFERENCES `wallet_txn`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `invoice_line_invoice_idx` ON `invoice_line` (`invoice_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoice_line_txn_uq` ON `invoice_line` (`txn_id`);--> statement-breakpoint
CREATE TABLE `unit_of_measurement` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`symbol` text NOT NULL,
	`kg_factor` real NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `wallet` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`currency` text NOT NULL,
	`balance_cents` integer DEFAULT 0 NOT NULL,
	`credit_limit_cents` integer,
	`created_by` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `wallet_company_uq` ON `wallet` (`company_id`);--> statement-breakpoint
CREATE TABLE `wallet_txn` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`wallet_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`kind` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`balance_after_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`billing` text DEFAULT 'prepaid' NOT NULL,
	`package_id` integer,
	`reason` text DEFAULT '' NOT NULL,
	`reference` text DEFAULT '' NOT NULL,
	`created_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`wallet_id`) REFERENCES `wallet`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `wallet_txn_wallet_idx` ON `wallet_txn` (`wallet_id`,`id`);--> statement-breakpoint
CREATE INDEX `wallet_txn_company_idx` ON `wallet_txn` (`company_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `wallet_txn_package_kind_uq` ON `wallet_txn` (`package_id`,`kind`) WHERE "wallet_txn"."kind" <> 'reprice';--> statement-breakpoint
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
CREATE UNIQUE INDEX `driver_position_driver_time_uq` ON `driver_position` (`driver_id`,`occurred_at`);--> statement-breakpoint
CREATE TABLE `company_api_key` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `company_api_key_hash_uq` ON `company_api_key` (`key_hash`);--> statement-breakpoint
CREATE INDEX `company_api_key_company_idx` ON `company_api_key` (`company_id`);--> statement-breakpoint
CREATE TABLE `webhook_delivery` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`endpoint_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`event_id` text NOT NULL,
	`event` text NOT NULL,
	`package_id` integer,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_attempt_at` integer,
	`last_status_code` integer,
	`last_error` text,
	`delivered_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoint`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_delivery_event_uq` ON `webhook_delivery` (`event_id`);--> statement-breakpoint
CREATE INDEX `webhook_delivery_due_idx` ON `webhook_delivery` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_delivery_company_idx` ON `webhook_delivery` (`company_id`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_endpoint` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoint_company_idx` ON `webhook_endpoint` (`company_id`,`is_active`);--> statement-breakpoint
CREATE TABLE `webhook_nonce` (
	`signature` text PRIMARY KEY NOT NULL,
	`company_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_nonce_expiry_idx` ON `webhook_nonce` (`expires_at`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`actor_id` integer,
	`action` text NOT NULL,
	`target` text NOT NULL,
	`details` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_target_idx` ON `audit_log` (`target`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_actor_idx` ON `audit_log` (`actor_id`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_action_idx` ON `audit_log` (`action`,`id`);--> statement-breakpoint
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
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action
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
--> statement-breakpoint
CREATE TABLE `company_terms` (
	`company_id` integer PRIMARY KEY NOT NULL,
	`unpriced_policy` text DEFAULT 'accept' NOT NULL,
	`payment_terms_days` integer DEFAULT 14 NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `package_pricing` (
	`package_id` integer PRIMARY KEY NOT NULL,
	`company_id` integer NOT NULL,
	`state` text NOT NULL,
	`price_cents` integer,
	`currency` text NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`priced_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `package_pricing_state_idx` ON `package_pricing` (`state`,`company_id`);--> statement-breakpoint
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
CREATE INDEX `refused_delivery_file_idx` ON `refused_delivery_file` (`refused_id`);--> statement-breakpoint
CREATE TABLE `address_book` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`address_key` text NOT NULL,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`source` text NOT NULL,
	`samples` integer DEFAULT 0 NOT NULL,
	`updated_by` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`updated_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `address_book_key_uq` ON `address_book` (`address_key`);--> statement-breakpoint
CREATE TABLE `address_sighting` (
	`address_key` text NOT NULL,
	`package_id` integer NOT NULL,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`occurred_at` integer NOT NULL,
	PRIMARY KEY(`address_key`, `package_id`),
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `geocode_cache` (
	`query` text PRIMARY KEY NOT NULL,
	`found` integer NOT NULL,
	`latitude` real,
	`longitude` real,
	`precision` text,
	`label` text,
	`fetched_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `geocode_job` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_by` integer,
	`company_id` integer,
	`total` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `package_location` (
	`package_id` integer PRIMARY KEY NOT NULL,
	`precision` text NOT NULL,
	`source` text NOT NULL,
	`address_key` text,
	`pending` integer DEFAULT false NOT NULL,
	`job_id` integer,
	`geocode_status` text,
	`resolved_at` integer NOT NULL,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `package_location_precision_idx` ON `package_location` (`precision`);--> statement-breakpoint
CREATE INDEX `package_location_pending_idx` ON `package_location` (`pending`,`package_id`);--> statement-breakpoint
CREATE INDEX `package_location_key_idx` ON `package_location` (`address_key`);--> statement-breakpoint
CREATE TABLE `travel_matrix_cache` (
	`day` text NOT NULL,
	`provider` text NOT NULL,
	`points_hash` text NOT NULL,
	`matrix` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`day`, `provider`, `points_hash`)
);
--> statement-breakpoint
CREATE TABLE `business_profile` (
	`id` integer PRIMARY KEY NOT NULL,
	`legal_name` text DEFAULT '' NOT NULL,
	`trading_name` text DEFAULT '' NOT NULL,
	`abn` text DEFAULT '' NOT NULL,
	`address` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`bank_account_name` text DEFAULT '' NOT NULL,
	`bank_bsb` text DEFAULT '' NOT NULL,
	`bank_account_number` text DEFAULT '' NOT NULL,
	`payment_instructions` text DEFAULT '' NOT NULL,
	`gst_rate_bp` integer DEFAULT 1000 NOT NULL,
	`prices_include_gst` integer DEFAULT true NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `throttle` (
	`key` text PRIMARY KEY NOT NULL,
	`n` integer NOT NULL,
	`until_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `throttle_expires_idx` ON `throttle` (`expires_at`);--> statement-breakpoint
CREATE TABLE `delivery_attempt_history` (
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
	FOREIGN KEY (`driver_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`recorded_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`photo_file_id`) REFERENCES `stored_file`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `delivery_attempt_history_pkg_idx` ON `delivery_attempt_history` (`package_id`);--> statement-breakpoint
CREATE INDEX `delivery_attempt_history_occurred_idx` ON `delivery_attempt_history` (`occurred_at`);--> statement-breakpoint
CREATE TABLE `delivery_record_history` (
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
	FOREIGN KEY (`driver_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `delivery_record_history_pkg_idx` ON `delivery_record_history` (`package_id`);--> statement-breakpoint
CREATE INDEX `delivery_record_history_occurred_idx` ON `delivery_record_history` (`occurred_at`);--> statement-breakpoint
CREATE TABLE `package_history` (
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
	`moved_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`zone_id`) REFERENCES `zone`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`suburb_id`) REFERENCES `suburb`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`state_id`) REFERENCES `state`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`country_id`) REFERENCES `country`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`assigned_to_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `package_history_hawb_uq` ON `package_history` (`hawb`);--> statement-breakpoint
CREATE INDEX `package_history_company_idx` ON `package_history` (`company_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `package_history_created_idx` ON `package_history` (`created_at`);--> statement-breakpoint
CREATE INDEX `package_history_status_idx` ON `package_history` (`status`);--> statement-breakpoint
CREATE INDEX `package_history_driver_idx` ON `package_history` (`assigned_to_id`,`delivered_at`);--> statement-breakpoint
CREATE TABLE `package_history_answer` (
	`package_id` integer PRIMARY KEY NOT NULL,
	`answer` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `package_history_row` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`package_id` integer NOT NULL,
	`source` text NOT NULL,
	`row_id` integer,
	`data` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `package_history_row_pkg_idx` ON `package_history_row` (`package_id`,`source`,`row_id`);