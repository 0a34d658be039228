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
ALTER TABLE `invoice` ADD `due_at` integer;--> statement-breakpoint
ALTER TABLE `invoice` ADD `gst_rate_bp` integer;--> statement-breakpoint
ALTER TABLE `invoice` ADD `prices_include_gst` integer;