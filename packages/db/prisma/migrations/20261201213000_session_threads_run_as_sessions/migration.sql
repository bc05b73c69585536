-- A session thread runs as a session row of its own (id = the thread's sthr_ id), so its turns get the
-- lease, inbox, event log and recovery every session has, and parent_session_id ties it to its session.
ALTER TABLE "sessions" ADD COLUMN "parent_session_id" TEXT;
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_parent_session_id_fkey"
    FOREIGN KEY ("parent_session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "sessions_parent_session_id_idx" ON "sessions"("parent_session_id");

-- One primary thread per session, one thread per callable agent name (hand-written partial indexes).
CREATE UNIQUE INDEX "session_threads_primary_key" ON "session_threads"("session_id") WHERE "parent_thread_id" IS NULL;
CREATE UNIQUE INDEX "session_threads_agent_name_key" ON "session_threads"("session_id", "agent_name") WHERE "parent_thread_id" IS NOT NULL;
