-- Fills the lookups added in 0003 for parcels already in history (the mover fills them from now on):
-- tracking-link tokens, the all-time tally, and each actor's last event per cold parcel.
INSERT INTO `package_history_token` (`token`, `package_id`)
SELECT json_extract(`data`, '$.token'), `package_id` FROM `package_history_row`
WHERE `source` = 'package_recipient' AND json_extract(`data`, '$.token') IS NOT NULL;
--> statement-breakpoint
INSERT INTO `package_history_tally` (`scope`, `owner_id`, `status`, `n`)
SELECT 'all', 0, `status`, count(*) FROM `package_history` GROUP BY `status`;
--> statement-breakpoint
INSERT INTO `package_history_tally` (`scope`, `owner_id`, `status`, `n`)
SELECT 'company', `company_id`, `status`, count(*) FROM `package_history` WHERE `company_id` IS NOT NULL GROUP BY `company_id`, `status`;
--> statement-breakpoint
INSERT INTO `package_history_tally` (`scope`, `owner_id`, `status`, `n`)
SELECT 'driver', `assigned_to_id`, `status`, count(*) FROM `package_history` WHERE `assigned_to_id` IS NOT NULL GROUP BY `assigned_to_id`, `status`;
--> statement-breakpoint
INSERT INTO `package_history_tally` (`scope`, `owner_id`, `status`, `n`)
SELECT 'route', `route_id`, `status`, count(*) FROM `package_history` WHERE `route_id` IS NOT NULL GROUP BY `route_id`, `status`;
--> statement-breakpoint
INSERT INTO `package_history_actor` (`actor_id`, `package_id`, `event_id`, `action`, `received_at`)
SELECT json_extract(r.`data`, '$.actor_id'), r.`package_id`, r.`row_id`, json_extract(r.`data`, '$.action'), json_extract(r.`data`, '$.received_at')
FROM `package_history_row` r
WHERE r.`source` = 'package_event' AND json_extract(r.`data`, '$.actor_id') IS NOT NULL
  AND r.`row_id` = (
    SELECT max(r2.`row_id`) FROM `package_history_row` r2
    WHERE r2.`package_id` = r.`package_id` AND r2.`source` = 'package_event'
      AND json_extract(r2.`data`, '$.actor_id') = json_extract(r.`data`, '$.actor_id')
  );
