-- Dreams: jobs that rewrite a memory store from one call of a model, as new memory versions.
CREATE TABLE "dreams" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "namespace_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "inputs" JSONB NOT NULL,
    "instructions" TEXT,
    "model" JSONB NOT NULL,
    "output_behavior" JSONB NOT NULL,
    "output_store_id" TEXT,
    "error" JSONB,
    "usage" JSONB NOT NULL DEFAULT '{}',
    "created_by" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),
    "archived_at" TIMESTAMPTZ(3),

    CONSTRAINT "dreams_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "dreams_tenant_id_namespace_id_created_at_idx" ON "dreams"("tenant_id", "namespace_id", "created_at");
