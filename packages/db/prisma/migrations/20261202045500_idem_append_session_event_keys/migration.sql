-- The Idempotency-Key of a client append, per session: a retry whose first attempt committed (its
-- reply lost) gets the committed events back instead of appending them a second time.
CREATE TABLE "session_event_keys" (
    "session_id" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "event_ids" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "session_event_keys_pkey" PRIMARY KEY ("session_id","key_hash")
);

ALTER TABLE "session_event_keys" ADD CONSTRAINT "session_event_keys_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
