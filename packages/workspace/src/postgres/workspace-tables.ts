/**
 * The Postgres tables a `PostgresWorkspaceFs` stores its rows in, all of the same shape. Each has one
 * writing service (packages/db `TABLE_OWNERS`): the dataplane writes `workspace_files` (agent, session and
 * artefact roots), the worker `hands_workspace_files` (the durable copy of a session's Hands workspace).
 * A closed list, so the SQL built from a table name never carries anything else.
 */
const WORKSPACE_TABLES = ['workspace_files', 'hands_workspace_files'] as const;

export type WorkspaceTable = (typeof WORKSPACE_TABLES)[number];

export function isWorkspaceTable(table: unknown): table is WorkspaceTable {
  return (WORKSPACE_TABLES as readonly unknown[]).includes(table);
}
