CREATE TABLE "package_history_actor" (
	"actor_id" bigint NOT NULL,
	"package_id" bigint NOT NULL,
	"event_id" bigint NOT NULL,
	"action" text NOT NULL,
	"received_at" bigint NOT NULL,
	CONSTRAINT "package_history_actor_actor_id_package_id_pk" PRIMARY KEY("actor_id","package_id")
);
--> statement-breakpoint
CREATE TABLE "package_history_tally" (
	"scope" text NOT NULL,
	"owner_id" bigint NOT NULL,
	"status" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "package_history_tally_scope_owner_id_status_pk" PRIMARY KEY("scope","owner_id","status")
);
--> statement-breakpoint
CREATE TABLE "package_history_token" (
	"token" text PRIMARY KEY NOT NULL,
	"package_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "package_history_actor_last_idx" ON "package_history_actor" USING btree ("actor_id","event_id");--> statement-breakpoint
CREATE INDEX "package_history_route_idx" ON "package_history" USING btree ("route_id");--> statement-breakpoint
CREATE INDEX "package_history_delivered_idx" ON "package_history" USING btree ("status","delivered_at","id");--> statement-breakpoint
CREATE INDEX "package_history_delivered_at_idx" ON "package_history" USING btree ("delivered_at","id");