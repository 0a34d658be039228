-- Fills the lookups added in 0003 for parcels already in history (the mover fills them from now on):
-- tracking-link tokens, the tallies (per status; parcels with proof; failed attempts), and each actor's last event per cold parcel.
INSERT INTO "package_history_token" ("token", "package_id")
SELECT "data"::jsonb ->> 'token', "package_id" FROM "package_history_row"
WHERE "source" = 'package_recipient' AND "data"::jsonb ->> 'token' IS NOT NULL;
--> statement-breakpoint
INSERT INTO "package_history_tally" ("scope", "owner_id", "status", "n")
SELECT 'all', 0, "status", count(*) FROM "package_history" GROUP BY "status";
--> statement-breakpoint
INSERT INTO "package_history_tally" ("scope", "owner_id", "status", "n")
SELECT 'company', "company_id", "status", count(*) FROM "package_history" WHERE "company_id" IS NOT NULL GROUP BY "company_id", "status";
--> statement-breakpoint
INSERT INTO "package_history_tally" ("scope", "owner_id", "status", "n")
SELECT 'driver', "assigned_to_id", "status", count(*) FROM "package_history" WHERE "assigned_to_id" IS NOT NULL GROUP BY "assigned_to_id", "status";
--> statement-breakpoint
INSERT INTO "package_history_tally" ("scope", "owner_id", "status", "n")
SELECT 'route', "route_id", "status", count(*) FROM "package_history" WHERE "route_id" IS NOT NULL GROUP BY "route_id", "status";
--> statement-breakpoint
INSERT INTO "package_history_tally" ("scope", "owner_id", "status", "n")
SELECT 'all', 0, 'with_proof', c.n FROM (SELECT count(*) AS n FROM "package_history" p WHERE (EXISTS (SELECT 1 FROM "package_history_row" r WHERE r."package_id" = p."id" AND r."source" = 'package_photo') OR EXISTS (SELECT 1 FROM "delivery_record_history" d WHERE d."package_id" = p."id"))) c WHERE c.n > 0;
--> statement-breakpoint
INSERT INTO "package_history_tally" ("scope", "owner_id", "status", "n")
SELECT 'company', p."company_id", 'with_proof', count(*) FROM "package_history" p WHERE p."company_id" IS NOT NULL AND (EXISTS (SELECT 1 FROM "package_history_row" r WHERE r."package_id" = p."id" AND r."source" = 'package_photo') OR EXISTS (SELECT 1 FROM "delivery_record_history" d WHERE d."package_id" = p."id")) GROUP BY p."company_id";
--> statement-breakpoint
INSERT INTO "package_history_tally" ("scope", "owner_id", "status", "n")
SELECT 'all', 0, 'attempts', c.n FROM (SELECT count(*) AS n FROM "delivery_attempt_history") c WHERE c.n > 0;
--> statement-breakpoint
INSERT INTO "package_history_tally" ("scope", "owner_id", "status", "n")
SELECT 'company', p."company_id", 'attempts', count(*) FROM "delivery_attempt_history" a
INNER JOIN "package_history" p ON p."id" = a."package_id" WHERE p."company_id" IS NOT NULL GROUP BY p."company_id";
--> statement-breakpoint
INSERT INTO "package_history_actor" ("actor_id", "package_id", "event_id", "action", "received_at")
SELECT DISTINCT ON (("data"::jsonb ->> 'actor_id')::bigint, "package_id")
  ("data"::jsonb ->> 'actor_id')::bigint, "package_id", "row_id", "data"::jsonb ->> 'action', ("data"::jsonb ->> 'received_at')::bigint
FROM "package_history_row"
WHERE "source" = 'package_event' AND "data"::jsonb ->> 'actor_id' IS NOT NULL
ORDER BY ("data"::jsonb ->> 'actor_id')::bigint, "package_id", "row_id" DESC;
