-- Fills the lookups added in 0003 for parcels already in history (the mover fills them from now on):
-- tracking-link tokens, the tallies (per status; parcels with proof; failed attempts), and each actor's last event per cold parcel.
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
INSERT INTO `package_history_tally` (`scope`, `owner_id`, `status`, `n`)
SELECT 'all', 0, 'with_proof', c.n FROM (SELECT count(*) AS n FROM `package_history` p WHERE (EXISTS (SELECT 1 FROM `package_history_row` r WHERE r.`package_id` = p.`id` AND r.`source` = 'package_photo') OR EXISTS (SELECT 1 FROM `delivery_record_history` d WHERE d.`package_id` = p.`id`))) c WHERE c.n > 0;
--> statement-breakpoint
INSERT INTO `package_history_tally` (`scope`, `owner_id`, `status`, `n`)
SELECT 'company', p.`company_id`, 'with_proof', count(*) FROM `package_history` p WHERE p.`company_id` IS NOT NULL AND (EXISTS (SELECT 1 FROM `package_history_row` r WHERE r.`package_id` = p.`id` AND r.`source` = 'package_photo') OR EXISTS (SELECT 1 FROM `delivery_record_history` d WHERE d.`package_id` = p.`id`)) GROUP BY p.`company_id`;
--> statement-breakpoint
INSERT INTO `package_history_tally` (`scope`, `owner_id`, `status`, `n`)
SELECT 'all', 0, 'attempts', c.n FROM (SELECT count(*) AS n FROM `delivery_attempt_history`) c WHERE c.n > 0;
--> statement-breakpoint
INSERT INTO `package_history_tally` (`scope`, `owner_id`, `status`, `n`)
SELECT 'company', p.`company_id`, 'attempts', count(*) FROM `delivery_attempt_history` a
INNER JOIN `package_history` p ON p.`id` = a.`package_id` WHERE p.`company_id` IS NOT NULL GROUP BY p.`company_id`;
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
