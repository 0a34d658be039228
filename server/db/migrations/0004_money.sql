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
	FOREIGN KEY (`txn_id`) REFERENCES `wallet_txn`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action
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
	`package_id` integer,
	`reason` text DEFAULT '' NOT NULL,
	`reference` text DEFAULT '' NOT NULL,
	`created_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`wallet_id`) REFERENCES `wallet`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`package_id`) REFERENCES `package`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `wallet_txn_wallet_idx` ON `wallet_txn` (`wallet_id`,`id`);--> statement-breakpoint
CREATE INDEX `wallet_txn_company_idx` ON `wallet_txn` (`company_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `wallet_txn_package_kind_uq` ON `wallet_txn` (`package_id`,`kind`);