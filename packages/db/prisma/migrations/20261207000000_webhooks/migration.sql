-- Outbound webhooks: endpoint labels, per-session endpoints, automatic disabling, secret rotation with a
-- grace period, and a log of every delivery attempt. The tables were unused until now, so the event id a
-- delivery carries can be required outright.
ALTER TABLE "webhooks" ADD COLUMN "name" TEXT NOT NULL DEFAULT '',
ADD COLUMN "session_id" TEXT,
ADD COLUMN "disabled_reason" TEXT NOT NULL DEFAULT '',
ADD COLUMN "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "previous_secret_ciphertext" BYTEA,
ADD COLUMN "previous_secret_iv" BYTEA,
ADD COLUMN "previous_secret_tag" BYTEA,
ADD COLUMN "previous_secret_expires_at" TIMESTAMPTZ(3);

ALTER TABLE "webhook_deliveries" ADD COLUMN "event_id" TEXT NOT NULL,
ADD COLUMN "last_latency_ms" INTEGER;

CREATE TABLE "webhook_delivery_attempts" (
    "id" TEXT NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status_code" INTEGER,
    "latency_ms" INTEGER NOT NULL,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_delivery_attempts_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "webhook_delivery_attempts_delivery_id_attempt_idx" ON "webhook_delivery_attempts"("delivery_id", "attempt");

CREATE INDEX "webhooks_tenant_id_enabled_idx" ON "webhooks"("tenant_id", "enabled");

CREATE UNIQUE INDEX "webhook_deliveries_webhook_id_event_id_key" ON "webhook_deliveries"("webhook_id", "event_id");

ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
