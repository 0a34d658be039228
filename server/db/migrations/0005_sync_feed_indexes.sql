CREATE INDEX `change_log_record_idx` ON `change_log` (`entity`,`entity_id`,`seq`);--> statement-breakpoint
CREATE INDEX `change_log_company_idx` ON `change_log` (`company_id`,`seq`);