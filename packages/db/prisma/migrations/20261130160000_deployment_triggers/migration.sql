-- Webhook trigger tokens are stored as SHA-256 hashes, looked up by hash.
ALTER TABLE "deployments" ADD COLUMN "webhook_token_hash" TEXT;
CREATE UNIQUE INDEX "deployments_webhook_token_hash_key" ON "deployments"("webhook_token_hash");

-- At most one run per deployment and scheduled time (manual runs have no scheduled time).
CREATE UNIQUE INDEX "deployment_runs_deployment_id_scheduled_for_key" ON "deployment_runs"("deployment_id", "scheduled_for");
