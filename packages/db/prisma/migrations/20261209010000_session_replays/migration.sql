-- Replays of recorded sessions against another agent version: the replay, the fresh session it runs in,
-- and, once done, the turn-by-turn comparison. A replay outlives a scheduler restart.
CREATE TABLE "session_replays" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "namespace_id" TEXT NOT NULL,
    "actor" JSONB NOT NULL,
    "batch_id" TEXT,
    "source_session_id" TEXT NOT NULL,
    "replay_session_id" TEXT,
    "agent_id" TEXT NOT NULL,
    "agent_version" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "error" TEXT,
    "comparison" JSONB,
    "deadline_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "session_replays_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "session_replays_tenant_id_namespace_id_created_at_idx" ON "session_replays"("tenant_id", "namespace_id", "created_at");
CREATE INDEX "session_replays_batch_id_idx" ON "session_replays"("batch_id");
CREATE INDEX "session_replays_status_idx" ON "session_replays"("status");

-- A batch: an agent's last sessions replayed against one version. Its replays name it in batch_id.
CREATE TABLE "session_replay_batches" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "namespace_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "agent_version" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "session_replay_batches_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "session_replay_batches_tenant_id_namespace_id_idx" ON "session_replay_batches"("tenant_id", "namespace_id");
