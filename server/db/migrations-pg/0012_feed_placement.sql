-- The change feed without a lock held through COMMIT (server/db/engine/feedPlacement.ts): a unit's
-- feed rows are written pending, with a negative seq from the identity (-1, -2, ... in the order they
-- were inserted), and placed after they committed, one placement at a time, at the positive seqs
-- devices read. No device reads a negative seq (cursors are >= 0), so a row is never seen below a
-- cursor it could still commit under. The partial index finds the pending rows without scanning the feed.
ALTER TABLE "change_log" ALTER COLUMN "seq" SET INCREMENT BY -1 SET MINVALUE -9223372036854775807 SET MAXVALUE -1 SET START WITH -1 RESTART WITH -1;--> statement-breakpoint
CREATE INDEX "change_log_pending_idx" ON "change_log" ("seq") WHERE "seq" < 0;
