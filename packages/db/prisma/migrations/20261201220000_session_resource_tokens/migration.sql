-- Repository tokens of session resources, sealed like vault secrets (AES-256-GCM, the resource id bound in).
CREATE TABLE "session_resource_tokens" (
    "resource_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    "iv" BYTEA NOT NULL,
    "tag" BYTEA NOT NULL,
    "key_version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "session_resource_tokens_pkey" PRIMARY KEY ("resource_id")
);

CREATE INDEX "session_resource_tokens_session_id_idx" ON "session_resource_tokens"("session_id");

ALTER TABLE "session_resource_tokens" ADD CONSTRAINT "session_resource_tokens_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Tokens stored in plaintext before this table existed are dropped rather than kept readable.
UPDATE "sessions"
SET "resources" = (
    SELECT COALESCE(jsonb_agg(r - 'authorization_token'), '[]'::jsonb) FROM jsonb_array_elements("resources") AS r
)
WHERE "resources"::text LIKE '%authorization_token%';
