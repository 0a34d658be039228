CREATE TABLE `package_history_actor` (
	`actor_id` integer NOT NULL,
	`package_id` integer NOT NULL,
	`event_id` integer NOT NULL,
	`action` text NOT NULL,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`actor_id`, `package_id`)
);
--> statement-breakpoint
CREATE INDEX `package_history_actor_last_idx` ON `package_history_actor` (`actor_id`,`event_id`);--> statement-breakpoint
CREATE TABLE `package_history_tally` (
	`scope` text NOT NULL,
	`owner_id` integer NOT NULL,
	`status` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`scope`, `owner_id`, `status`)
);
--> statement-breakpoint
CREATE TABLE `package_history_token` (
	`token` text PRIMARY KEY NOT NULL,
	`package_id` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `package_history_route_idx` ON `package_history` (`route_id`);--> statement-breakpoint
CREATE INDEX `package_history_delivered_idx` ON `package_history` (`status`,`delivered_at`,`id`);--> statement-breakpoint
CREATE INDEX `package_history_delivered_at_idx` ON `package_history` (`delivered_at`,`id`);