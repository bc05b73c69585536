-- A workflow run: the plan an agent wrote (phases of threads), the phase it is in, and how it ended.
-- One run per starting tool call, so a re-run of that call after a crash finds it.
CREATE TABLE "workflow_runs" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "tool_use_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "plan" JSONB NOT NULL,
    "phase" INTEGER NOT NULL DEFAULT 0,
    "result" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "workflow_runs_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "workflow_runs_session_id_tool_use_id_key" ON "workflow_runs"("session_id", "tool_use_id");
ALTER TABLE "workflow_runs" ADD CONSTRAINT "workflow_runs_session_id_fkey"
    FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The run that started a thread, if one did.
ALTER TABLE "session_threads" ADD COLUMN "workflow_run_id" TEXT;
CREATE INDEX "session_threads_workflow_run_id_idx" ON "session_threads"("workflow_run_id");
