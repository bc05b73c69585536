-- CreateEnum
CREATE TYPE "namespace_role" AS ENUM ('member', 'viewer');

-- CreateTable
CREATE TABLE "namespace_members" (
    "namespace_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "role" "namespace_role" NOT NULL DEFAULT 'member',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "namespace_members_pkey" PRIMARY KEY ("namespace_id","user_id")
);

-- CreateIndex
CREATE INDEX "namespace_members_user_id_created_at_idx" ON "namespace_members"("user_id", "created_at");

-- AddForeignKey
ALTER TABLE "namespace_members" ADD CONSTRAINT "namespace_members_namespace_id_fkey" FOREIGN KEY ("namespace_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "namespace_members" ADD CONSTRAINT "namespace_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill: until now every user of a tenant worked in all of its namespaces, so that access is kept as
-- explicit memberships (viewers stay viewers), ordered as the namespaces were created.
INSERT INTO "namespace_members" ("namespace_id", "user_id", "tenant_id", "role", "created_at")
SELECT n."id", u."id", u."tenant_id",
       CASE WHEN u."role" = 'viewer' THEN 'viewer'::"namespace_role" ELSE 'member'::"namespace_role" END,
       GREATEST(n."created_at", u."created_at")
FROM "users" u
JOIN "namespaces" n ON n."tenant_id" = u."tenant_id" AND n."archived_at" IS NULL;
