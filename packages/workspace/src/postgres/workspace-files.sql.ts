import type { WorkspaceTable } from './workspace-tables.js';

/**
 * Statements of the Postgres backend. Every one is a single statement, so each primitive is atomic
 * without a transaction (the SQL port may be a pool). $1 is always the tenant, $2 the root.
 */
export function workspaceFilesSql(table: WorkspaceTable) {
  // Epoch milliseconds as float8: node-pg's timestamptz parsing costs more than the query itself.
  const cols = 'path, kind, size, version, (extract(epoch FROM updated_at) * 1000)::float8 AS updated_ms';
  const scope = 'tenant_id = $1 AND root = $2';
  return {
    stat: `SELECT ${cols} FROM ${table} WHERE ${scope} AND path = $3`,
    read: `SELECT kind, content FROM ${table} WHERE ${scope} AND path = $3`,
    readChunk: `SELECT substring(content FROM $4 FOR $5) AS chunk FROM ${table} WHERE ${scope} AND path = $3 AND version = $6`,
    kindsOf: `SELECT path, kind FROM ${table} WHERE ${scope} AND path = ANY($3::text[])`,
    insertDirs: `INSERT INTO ${table} (tenant_id, root, path, parent, kind, size, version)
      SELECT $1, $2, p, pp, 'dir', 0, 0 FROM unnest($3::text[], $4::text[]) AS u(p, pp)
      ON CONFLICT (root, path) DO NOTHING RETURNING path`,
    upsert: `INSERT INTO ${table} AS t (tenant_id, root, path, parent, kind, content, size, version)
      VALUES ($1, $2, $3, $4, 'file', $5, $6, 1)
      ON CONFLICT (root, path) DO UPDATE SET content = EXCLUDED.content, size = EXCLUDED.size,
        version = t.version + 1, updated_at = now()
      WHERE t.kind = 'file' AND t.tenant_id = $1
      RETURNING ${cols}`,
    create: `INSERT INTO ${table} (tenant_id, root, path, parent, kind, content, size, version)
      VALUES ($1, $2, $3, $4, 'file', $5, $6, 1) ON CONFLICT (root, path) DO NOTHING RETURNING ${cols}`,
    compareAndSet: `UPDATE ${table} SET content = $4, size = $5, version = version + 1, updated_at = now()
      WHERE ${scope} AND path = $3 AND kind = 'file' AND version = $6 RETURNING ${cols}`,
    append: `INSERT INTO ${table} AS t (tenant_id, root, path, parent, kind, content, size, version)
      VALUES ($1, $2, $3, $4, 'file', $5, $6, 1)
      ON CONFLICT (root, path) DO UPDATE SET content = t.content || EXCLUDED.content, size = t.size + EXCLUDED.size,
        version = t.version + 1, updated_at = now()
      WHERE t.kind = 'file' AND t.tenant_id = $1 AND t.size + EXCLUDED.size <= $7
      RETURNING ${cols}`,
    // $3 paths, $4 directories whose children, $5 LIKE prefixes of subtrees; content of planned files up to $6 bytes.
    readAhead: `SELECT ${cols}, parent,
        CASE WHEN kind = 'file' AND path = ANY($3::text[]) AND size <= $6 THEN content END AS content
      FROM ${table} WHERE ${scope} AND (path = ANY($3::text[]) OR parent = ANY($4::text[]) OR path LIKE ANY($5::text[]))`,
    listChildren: `SELECT ${cols} FROM ${table} WHERE ${scope} AND parent = $3`,
    listAll: `SELECT ${cols} FROM ${table} WHERE ${scope}`,
    listUnder: `SELECT ${cols} FROM ${table} WHERE ${scope} AND path LIKE $3 ESCAPE '\\'`,
    deleteFileIfVersion: `DELETE FROM ${table} WHERE ${scope} AND path = $3 AND kind = 'file' AND version = $4`,
    // Renames the entry and everything beneath it in one statement; $6 is the replaced target's version.
    move: `UPDATE ${table} SET
        path = $4 || substr(path, char_length($3::text) + 1),
        parent = CASE WHEN path = $3 THEN $7 ELSE $4 || substr(parent, char_length($3::text) + 1) END,
        version = CASE WHEN path = $3 AND kind = 'file' THEN GREATEST(version, $6::bigint) + 1 ELSE version END,
        updated_at = now()
      WHERE ${scope} AND (path = $3 OR path LIKE $5 ESCAPE '\\')`,
    deleteEmpty: `DELETE FROM ${table} AS t WHERE t.tenant_id = $1 AND t.root = $2 AND t.path = $3
      AND NOT EXISTS (SELECT 1 FROM ${table} c WHERE c.root = $2 AND c.parent = $3) RETURNING t.path`,
    deleteTree: `DELETE FROM ${table} WHERE ${scope} AND (path = $3 OR path LIKE $4 ESCAPE '\\')`,
    mkdir: `INSERT INTO ${table} (tenant_id, root, path, parent, kind, size, version)
      VALUES ($1, $2, $3, $4, 'dir', 0, 0) ON CONFLICT (root, path) DO NOTHING RETURNING path`,
  };
}

export type WorkspaceFilesSql = ReturnType<typeof workspaceFilesSql>;

/** Escapes LIKE wildcards so a path is matched literally. */
export function likePrefix(dir: string): string {
  return `${dir.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;
}
