CREATE TABLE "throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL,
	"until_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "throttle_expires_idx" ON "throttle" USING btree ("expires_at");