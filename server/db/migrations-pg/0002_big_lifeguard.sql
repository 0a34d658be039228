CREATE INDEX "delivery_attempt_history_driver_idx" ON "delivery_attempt_history" USING btree ("driver_id","received_at");--> statement-breakpoint
CREATE INDEX "delivery_record_history_driver_idx" ON "delivery_record_history" USING btree ("driver_id","received_at");--> statement-breakpoint
CREATE INDEX "package_history_zone_idx" ON "package_history" USING btree ("zone_id","status");--> statement-breakpoint
CREATE INDEX "package_history_row_source_idx" ON "package_history_row" USING btree ("source","row_id");