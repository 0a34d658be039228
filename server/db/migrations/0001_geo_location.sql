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
DROP INDEX `wallet_txn_package_kind_uq`;--> statement-breakpoint
CREATE UNIQUE INDEX `wallet_txn_package_kind_uq` ON `wallet_txn` (`package_id`,`kind`) WHERE "wallet_txn"."kind" <> 'reprice';--> statement-breakpoint
ALTER TABLE `street` ADD `latitude` real;--> statement-breakpoint
ALTER TABLE `street` ADD `longitude` real;