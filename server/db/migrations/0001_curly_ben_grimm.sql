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
CREATE INDEX `package_history_row_pkg_idx` ON `package_history_row` (`package_id`,`source`,`row_id`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_invoice_line` (
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
INSERT INTO `__new_invoice_line`("id", "invoice_id", "txn_id", "package_id", "description", "amount_cents", "created_at") SELECT "id", "invoice_id", "txn_id", "package_id", "description", "amount_cents", "created_at" FROM `invoice_line`;--> statement-breakpoint
DROP TABLE `invoice_line`;--> statement-breakpoint
ALTER TABLE `__new_invoice_line` RENAME TO `invoice_line`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `invoice_line_invoice_idx` ON `invoice_line` (`invoice_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoice_line_txn_uq` ON `invoice_line` (`txn_id`);--> statement-breakpoint
CREATE TABLE `__new_wallet_txn` (
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
INSERT INTO `__new_wallet_txn`("id", "wallet_id", "company_id", "kind", "amount_cents", "balance_after_cents", "currency", "billing", "package_id", "reason", "reference", "created_by", "created_at") SELECT "id", "wallet_id", "company_id", "kind", "amount_cents", "balance_after_cents", "currency", "billing", "package_id", "reason", "reference", "created_by", "created_at" FROM `wallet_txn`;--> statement-breakpoint
DROP TABLE `wallet_txn`;--> statement-breakpoint
ALTER TABLE `__new_wallet_txn` RENAME TO `wallet_txn`;--> statement-breakpoint
CREATE INDEX `wallet_txn_wallet_idx` ON `wallet_txn` (`wallet_id`,`id`);--> statement-breakpoint
CREATE INDEX `wallet_txn_company_idx` ON `wallet_txn` (`company_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `wallet_txn_package_kind_uq` ON `wallet_txn` (`package_id`,`kind`) WHERE "wallet_txn"."kind" <> 'reprice';--> statement-breakpoint
CREATE TABLE `__new_webhook_delivery` (
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
INSERT INTO `__new_webhook_delivery`("id", "endpoint_id", "company_id", "event_id", "event", "package_id", "payload", "status", "attempts", "next_attempt_at", "last_attempt_at", "last_status_code", "last_error", "delivered_at", "created_at", "updated_at") SELECT "id", "endpoint_id", "company_id", "event_id", "event", "package_id", "payload", "status", "attempts", "next_attempt_at", "last_attempt_at", "last_status_code", "last_error", "delivered_at", "created_at", "updated_at" FROM `webhook_delivery`;--> statement-breakpoint
DROP TABLE `webhook_delivery`;--> statement-breakpoint
ALTER TABLE `__new_webhook_delivery` RENAME TO `webhook_delivery`;--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_delivery_event_uq` ON `webhook_delivery` (`event_id`);--> statement-breakpoint
CREATE INDEX `webhook_delivery_due_idx` ON `webhook_delivery` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_delivery_company_idx` ON `webhook_delivery` (`company_id`,`id`);--> statement-breakpoint
CREATE TABLE `__new_message_outbox` (
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
INSERT INTO `__new_message_outbox`("id", "channel", "to", "kind", "subject", "body", "data", "company_id", "package_id", "dedupe_key", "status", "attempts", "next_attempt_at", "claimed_at", "last_error", "provider_id", "sent_at", "created_at", "updated_at") SELECT "id", "channel", "to", "kind", "subject", "body", "data", "company_id", "package_id", "dedupe_key", "status", "attempts", "next_attempt_at", "claimed_at", "last_error", "provider_id", "sent_at", "created_at", "updated_at" FROM `message_outbox`;--> statement-breakpoint
DROP TABLE `message_outbox`;--> statement-breakpoint
ALTER TABLE `__new_message_outbox` RENAME TO `message_outbox`;--> statement-breakpoint
CREATE UNIQUE INDEX `message_outbox_dedupe_uq` ON `message_outbox` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `message_outbox_due_idx` ON `message_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `message_outbox_package_idx` ON `message_outbox` (`package_id`);