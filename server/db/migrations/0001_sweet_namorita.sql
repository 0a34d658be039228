CREATE INDEX `package_history_zone_idx` ON `package_history` (`zone_id`,`status`);--> statement-breakpoint
CREATE INDEX `package_history_row_source_idx` ON `package_history_row` (`source`,`row_id`);