import type { WorkspaceTable } from './workspace-tables.js';

/**
 * A table behind PostgresWorkspaceFs (the migrations create them; this is for tests on a bare schema):
 * one row per file or directory of a workspace root. `root` is the scope key (it embeds the tenant);
 * `parent` makes a flat listing an index lookup; `version` increases on every change of a file and is
 * what compare-and-set writes compare.
 */
export function workspaceTableDdl(table: WorkspaceTable): string {
  return `
CREATE TABLE IF NOT EXISTS ${table} (
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
  CONSTRAINT ${table}_pkey PRIMARY KEY (root, path)
);
CREATE INDEX IF NOT EXISTS ${table}_root_parent_idx ON ${table} (root, parent);
CREATE INDEX IF NOT EXISTS ${table}_tenant_id_idx ON ${table} (tenant_id);
`;
}
