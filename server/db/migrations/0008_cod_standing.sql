CREATE TABLE `cash_handover` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`driver_id` integer NOT NULL,
	`day` text NOT NULL,
	`currency` text NOT NULL,
	`expected_cents` integer NOT NULL,
	`counted_cents` integer NOT NULL,
	`difference_cents` integer NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`counted_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`driver_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`counted_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cash_handover_driver_day_uq` ON `cash_handover` (`driver_id`,`day`,`currency`);--> statement-breakpoint
CREATE TABLE `driver_cash_txn` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`driver_id` integer NOT NULL,
	`day` text NOT NULL,
	`account` text NOT NULL,
	`kind` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`package_id` integer,
	`handover_id` integer,
	`reason` text DEFAULT '' NOT NULL,
	`created_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`driver_id`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `driver_cash_txn_driver_idx` ON `driver_cash_txn` (`driver_id`,`day`);--> statement-breakpoint
CREATE UNIQUE INDEX `driver_cash_txn_package_uq` ON `driver_cash_txn` (`package_id`,`kind`) WHERE "driver_cash_txn"."package_id" is not null;--> statement-breakpoint
CREATE TABLE `package_cod` (
	`package_id` integer PRIMARY KEY NOT NULL,
	`company_id` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`waived_cents` integer DEFAULT 0 NOT NULL,
	`waived_by` integer,
	`waived_at` integer,
	`waive_reason` text,
	`collected_cents` integer,
	`method` text,
	`collected_by` integer,
	`collected_at` integer,
	`collected_day` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`waived_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`collected_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `package_cod_collected_idx` ON `package_cod` (`collected_by`,`collected_day`);--> statement-breakpoint
CREATE INDEX `package_cod_company_idx` ON `package_cod` (`company_id`);--> statement-breakpoint
CREATE TABLE `public_holiday` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`day` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `public_holiday_day_uq` ON `public_holiday` (`day`);--> statement-breakpoint
CREATE TABLE `standing_delivery` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`company_id` integer NOT NULL,
	`weekdays` text NOT NULL,
	`at_time` text NOT NULL,
	`starts_on` text,
	`ends_on` text,
	`shipper_name` text DEFAULT '' NOT NULL,
	`shipper_address` text DEFAULT '' NOT NULL,
	`customer_name` text DEFAULT '' NOT NULL,
	`customer_address` text DEFAULT '' NOT NULL,
	`customer_phone` text DEFAULT '' NOT NULL,
	`postcode` integer,
	`suburb_id` integer,
	`description_of_goods` text DEFAULT '' NOT NULL,
	`weight` real,
	`created_by` integer,
	`is_active` integer DEFAULT true NOT NULL,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `company`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`suburb_id`) REFERENCES `suburb`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `standing_delivery_company_idx` ON `standing_delivery` (`company_id`);--> statement-breakpoint
CREATE TABLE `standing_run` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`rule_id` integer NOT NULL,
	`day` text NOT NULL,
	`due_at` integer NOT NULL,
	`package_id` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`rule_id`) REFERENCES `standing_delivery`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `standing_run_rule_day_uq` ON `standing_run` (`rule_id`,`day`);