-- Who created a session when it was an API key (created_by_id keeps the user)
ALTER TABLE "sessions" ADD COLUMN "created_by_api_key_id" TEXT;

-- A turn boundary of a session: the idle event that ended the turn and the workspace as it was then
CREATE TABLE "session_checkpoints" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "event_id" TEXT,
    "seq" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "session_checkpoints_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "session_checkpoints_session_id_seq_idx" ON "session_checkpoints"("session_id", "seq");
ALTER TABLE "session_checkpoints" ADD CONSTRAINT "session_checkpoints_session_id_fkey"
    FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One entry of a checkpoint's workspace, its content named by the hashes of its blobs (in order)
CREATE TABLE "session_checkpoint_files" (
    "checkpoint_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "root" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "mode" INTEGER NOT NULL,
    "link_target" TEXT,
    "size" BIGINT NOT NULL DEFAULT 0,
    "chunked" BOOLEAN NOT NULL DEFAULT false,
    "blobs" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    CONSTRAINT "session_checkpoint_files_pkey" PRIMARY KEY ("checkpoint_id", "root", "path")
);
CREATE INDEX "session_checkpoint_files_blobs_idx" ON "session_checkpoint_files" USING GIN ("blobs");
ALTER TABLE "session_checkpoint_files" ADD CONSTRAINT "session_checkpoint_files_checkpoint_id_fkey"
    FOREIGN KEY ("checkpoint_id") REFERENCES "session_checkpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Content of checkpointed files by SHA-256, stored once per tenant however many checkpoints name it
CREATE TABLE "session_checkpoint_blobs" (
    "tenant_id" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "size" BIGINT NOT NULL,
    CONSTRAINT "session_checkpoint_blobs_pkey" PRIMARY KEY ("tenant_id", "hash")
);
