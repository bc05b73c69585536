-- The durable copy of each session's Hands workspace gets a table of its own, written only by the worker;
-- `workspace_files` is left to the dataplane. Same shape as `workspace_files`.
CREATE TABLE "hands_workspace_files" (
    "tenant_id" TEXT NOT NULL,
    "root" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "parent" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "content" BYTEA,
    "size" INTEGER NOT NULL DEFAULT 0,
    "version" BIGINT NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "hands_workspace_files_pkey" PRIMARY KEY ("root","path"),
    CONSTRAINT "hands_workspace_files_kind_check" CHECK ("kind" IN ('file', 'dir'))
);

CREATE INDEX "hands_workspace_files_root_parent_idx" ON "hands_workspace_files"("root", "parent");

CREATE INDEX "hands_workspace_files_tenant_id_idx" ON "hands_workspace_files"("tenant_id");

-- Moves the Hands workspaces already stored (roots `tenants/{tenant}/hands/…`) in one statement, so a row
-- is either still in `workspace_files` or already in the new table, never lost or in both.
WITH "moved" AS (
    DELETE FROM "workspace_files" WHERE "root" ~ '^tenants/[^/]+/hands/'
    RETURNING "tenant_id", "root", "path", "parent", "kind", "content", "size", "version", "created_at", "updated_at"
)
INSERT INTO "hands_workspace_files"
    ("tenant_id", "root", "path", "parent", "kind", "content", "size", "version", "created_at", "updated_at")
SELECT "tenant_id", "root", "path", "parent", "kind", "content", "size", "version", "created_at", "updated_at"
FROM "moved";
