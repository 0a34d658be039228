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
CREATE INDEX `package_pricing_state_idx` ON `package_pricing` (`state`,`company_id`);