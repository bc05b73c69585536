-- Each dataplane replica's liveness: renewed every few hundred milliseconds while it runs, marked dead when it
-- shuts down. A turn lease whose holder's row has lapsed is taken over at once instead of at the lease's
-- expiry, and the lease's fencing token keeps a holder that was only slow from writing after that.
CREATE TABLE "dataplane_replicas" (
    "replica" TEXT NOT NULL,
    "alive_until" TIMESTAMPTZ(3) NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dataplane_replicas_pkey" PRIMARY KEY ("replica")
);
