-- The vault of one caller's MCP consent tokens: which caller it belongs to (user or API key).
-- Vaults made through the API keep it null, and nulls never collide in the unique index.
ALTER TABLE "vaults" ADD COLUMN "consent_owner" TEXT;
CREATE UNIQUE INDEX "vaults_tenant_id_namespace_id_consent_owner_key" ON "vaults"("tenant_id", "namespace_id", "consent_owner");
