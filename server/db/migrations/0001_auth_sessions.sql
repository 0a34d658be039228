ALTER TABLE `auth_token` ADD `last_used_at` integer;--> statement-breakpoint
ALTER TABLE `auth_token` ADD `device_id` text;