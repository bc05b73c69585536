-- Work items of self-hosted environments: user metadata, the claim time, the lease TTL in force and
-- the directory the worker reported. The sessions token is looked up by its hash.
ALTER TABLE "work_items" ADD COLUMN "metadata" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN "started_at" TIMESTAMPTZ(3),
ADD COLUMN "ttl_seconds" INTEGER NOT NULL DEFAULT 60,
ADD COLUMN "work_dir" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "work_items_secret_hash_key" ON "work_items"("secret_hash");

-- CreateIndex
CREATE INDEX "work_items_state_heartbeat_expires_at_idx" ON "work_items"("state", "heartbeat_expires_at");

-- At most one open item per session (queued, starting or active: one that is stopping is on its way
-- out and does not block the next), so queueing work unless some is open is one INSERT with
-- ON CONFLICT DO NOTHING. Partial, so it lives only here (Prisma ignores it when diffing).
CREATE UNIQUE INDEX "work_items_one_open_per_session" ON "work_items"("session_id") WHERE "state" IN ('queued', 'starting', 'active');
