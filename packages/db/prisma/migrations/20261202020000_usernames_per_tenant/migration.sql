-- Usernames are unique within a tenant, not across the installation: a name taken in one tenant
-- says nothing about another.
DROP INDEX "users_username_key";

CREATE UNIQUE INDEX "users_tenant_id_username_key" ON "users"("tenant_id", "username");

CREATE INDEX "users_username_idx" ON "users"("username");
