-- A background task (sessions_spawn) runs as a session thread of its own, one per spawning tool call,
-- and keeps its result here until the parent's turn collects it (consumed once, by one tool call).
ALTER TABLE "session_threads" ADD COLUMN "task_tool_use_id" TEXT;
ALTER TABLE "session_threads" ADD COLUMN "task_input" TEXT;
ALTER TABLE "session_threads" ADD COLUMN "result_status" TEXT;
ALTER TABLE "session_threads" ADD COLUMN "result" JSONB;
ALTER TABLE "session_threads" ADD COLUMN "finished_at" TIMESTAMPTZ(3);
ALTER TABLE "session_threads" ADD COLUMN "consumed_by" TEXT;
ALTER TABLE "session_threads" ADD COLUMN "consumed_at" TIMESTAMPTZ(3);

-- One delegation thread per agent name still, but any number of task threads (one per spawning call).
DROP INDEX "session_threads_agent_name_key";
CREATE UNIQUE INDEX "session_threads_agent_name_key" ON "session_threads"("session_id", "agent_name") WHERE "parent_thread_id" IS NOT NULL AND "task_tool_use_id" IS NULL;
CREATE UNIQUE INDEX "session_threads_task_tool_use_id_key" ON "session_threads"("session_id", "task_tool_use_id") WHERE "task_tool_use_id" IS NOT NULL;
