-- The state of each cloud environment's sandbox image (base userland plus its packages), reported by the
-- worker that builds it and shown on the environment (`agentry_build`) and its build log route.
CREATE TABLE "environment_builds" (
    "environment_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "packages_digest" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),
    "error" JSONB,
    "log" TEXT NOT NULL DEFAULT '',
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "environment_builds_pkey" PRIMARY KEY ("environment_id"),
    CONSTRAINT "environment_builds_status_check" CHECK ("status" IN ('pending', 'building', 'ready', 'failed'))
);

CREATE INDEX "environment_builds_tenant_id_idx" ON "environment_builds"("tenant_id");

ALTER TABLE "environment_builds" ADD CONSTRAINT "environment_builds_environment_id_fkey"
    FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
