-- AlterTable
ALTER TABLE "usage_ledger" ADD COLUMN     "agent_id" TEXT;

-- CreateIndex
CREATE INDEX "usage_ledger_tenant_id_agent_id_created_at_idx" ON "usage_ledger"("tenant_id", "agent_id", "created_at");

-- CreateIndex
CREATE INDEX "usage_ledger_tenant_id_kind_created_at_idx" ON "usage_ledger"("tenant_id", "kind", "created_at");

-- CreateIndex
CREATE INDEX "usage_ledger_reservation_id_idx" ON "usage_ledger"("reservation_id");
