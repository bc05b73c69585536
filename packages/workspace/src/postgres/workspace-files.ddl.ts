/**
 * The table behind PostgresWorkspaceFs: one row per file or directory of a workspace root. `root` is the
 * scope key (it embeds the tenant); `parent` makes a flat listing an index lookup; `version` increases on
 * every change of a file and is what compare-and-set writes compare.
 */
export const WORKSPACE_FILES_DDL = `
CREATE TABLE IF NOT EXISTS workspace_files (
  tenant_id  text           NOT NULL,
  root       text           NOT NULL,
  path       text           NOT NULL,
  parent     text           NOT NULL,
  kind       text           NOT NULL CHECK (kind IN ('file', 'dir')),
  content    bytea,
  size       integer        NOT NULL DEFAULT 0,
  version    bigint         NOT NULL DEFAULT 1,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT workspace_files_pkey PRIMARY KEY (root, path)
);
CREATE INDEX IF NOT EXISTS workspace_files_root_parent_idx ON workspace_files (root, parent);
CREATE INDEX IF NOT EXISTS workspace_files_tenant_id_idx ON workspace_files (tenant_id);
`;
