DROP INDEX `package_zone_idx`;--> statement-breakpoint
CREATE INDEX `package_zone_status_idx` ON `package` (`zone_id`,`status`,`deleted_at`);