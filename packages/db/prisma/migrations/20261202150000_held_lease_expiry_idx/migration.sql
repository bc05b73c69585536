-- Leases held right now, by expiry: each dataplane replica looks here for holders that stopped renewing.
-- A released lease has no owner and leaves the index.
CREATE INDEX "sessions_held_lease_expires_at_idx" ON "sessions"("lease_expires_at") WHERE "lease_owner" IS NOT NULL;
