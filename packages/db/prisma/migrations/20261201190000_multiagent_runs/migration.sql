-- Durable multi-agent runs (/api/multiagent/run): the run and each agent's session outlive a scheduler restart.
CREATE TABLE "multiagent_runs" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "namespace_id" TEXT NOT NULL,
    "actor" JSONB NOT NULL,
    "message" TEXT NOT NULL,
    "environment_id" TEXT NOT NULL,
    "parallel" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "results" JSONB NOT NULL DEFAULT '[]',
    "deadline_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "multiagent_runs_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "multiagent_runs_tenant_id_namespace_id_created_at_idx" ON "multiagent_runs"("tenant_id", "namespace_id", "created_at");
