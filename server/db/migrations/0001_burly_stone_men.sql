CREATE TABLE `throttle` (
	`key` text PRIMARY KEY NOT NULL,
	`n` integer NOT NULL,
	`until_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `throttle_expires_idx` ON `throttle` (`expires_at`);