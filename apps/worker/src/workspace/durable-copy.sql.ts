/**
 * Statements of a session's durable Hands workspace. Every write is one statement that first takes the
 * session's fence row FOR SHARE and matches it against the writer's binding ($1 tenant, $2 session, $3 epoch,
 * $4 worker): a claim by a newer binding waits for writes in flight and, once committed, makes every later
 * write of the older one match nothing. Each write answers `held` (1 or 0) so a refusal is seen, not silent.
 */
const FENCE = `fence AS (SELECT 1 FROM hands_workspace_fences
    WHERE tenant_id = $1 AND session_id = $2 AND epoch = $3 AND worker_id = $4 FOR SHARE)`;
const HELD = `SELECT (SELECT count(*) FROM fence)::int AS held`;

export const DURABLE_COPY_SQL = {
  /** A newer epoch takes the session over; the same binding may claim again (a retried first call). */
  claim: `WITH previous AS (SELECT worker_id FROM hands_workspace_fences WHERE tenant_id = $1 AND session_id = $2),
    claimed AS (
      INSERT INTO hands_workspace_fences AS f (tenant_id, session_id, epoch, worker_id) VALUES ($1, $2, $3, $4)
      ON CONFLICT (tenant_id, session_id) DO UPDATE SET epoch = EXCLUDED.epoch, worker_id = EXCLUDED.worker_id,
        claimed_at = now()
      WHERE f.epoch < EXCLUDED.epoch OR (f.epoch = EXCLUDED.epoch AND f.worker_id = EXCLUDED.worker_id)
      RETURNING 1)
    SELECT (SELECT count(*) FROM claimed)::int AS claimed, (SELECT worker_id FROM previous) AS previous_worker`,

  /** Directories, symlinks and small files ($6.. arrays, one element each), their content inline. */
  putEntries: `WITH ${FENCE},
    stale AS (DELETE FROM hands_workspace_chunks c USING fence WHERE c.root = $5 AND c.path = ANY($6::text[])),
    put AS (
      INSERT INTO hands_workspace_files AS t (tenant_id, root, path, parent, kind, mode, link_target, content, size, version)
      SELECT $1, $5::text, e.path, e.parent, e.kind, e.mode, e.target, e.content, e.size, 1
      FROM fence, unnest($6::text[], $7::text[], $8::text[], $9::int[], $10::text[], $11::bytea[], $12::bigint[])
        AS e(path, parent, kind, mode, target, content, size)
      ON CONFLICT (root, path) DO UPDATE SET kind = EXCLUDED.kind, mode = EXCLUDED.mode,
        link_target = EXCLUDED.link_target, content = EXCLUDED.content, size = EXCLUDED.size,
        version = t.version + 1, updated_at = now()
      RETURNING 1)
    ${HELD}`,

  /** One chunk ($8 = seq) of a large file's new content, under the version $7 it will be published as. */
  putChunk: `WITH ${FENCE},
    put AS (INSERT INTO hands_workspace_chunks (root, path, version, seq, content)
      SELECT $5::text, $6::text, $7::bigint, $8::int, $9::bytea FROM fence ON CONFLICT (root, path, version, seq) DO UPDATE SET content = EXCLUDED.content)
    ${HELD}`,

  /** Makes the chunks of version $9 the file's content and drops any other version's. */
  publishLarge: `WITH ${FENCE},
    put AS (
      INSERT INTO hands_workspace_files AS t (tenant_id, root, path, parent, kind, mode, content, size, version)
      SELECT $1, $5::text, $6::text, $7::text, 'file', $8::int, NULL, $10::bigint, $9::bigint FROM fence
      ON CONFLICT (root, path) DO UPDATE SET kind = 'file', mode = EXCLUDED.mode, link_target = NULL,
        content = NULL, size = EXCLUDED.size, version = EXCLUDED.version, updated_at = now()),
    stale AS (DELETE FROM hands_workspace_chunks c USING fence WHERE c.root = $5 AND c.path = $6 AND c.version <> $9)
    ${HELD}`,

  removeEntries: `WITH ${FENCE},
    files AS (DELETE FROM hands_workspace_files t USING fence WHERE t.root = $5 AND t.path = ANY($6::text[])),
    chunks AS (DELETE FROM hands_workspace_chunks c USING fence WHERE c.root = $5 AND c.path = ANY($6::text[]))
    ${HELD}`,

  /** Everything stored under a root, without content: what a restore recreates. */
  list: `SELECT path, kind, mode, link_target, size, version, content IS NULL AS chunked
    FROM hands_workspace_files WHERE root = $1 ORDER BY path`,
  contents: `SELECT path, content FROM hands_workspace_files WHERE root = $1 AND path = ANY($2::text[])`,
  chunk: `SELECT content FROM hands_workspace_chunks WHERE root = $1 AND path = $2 AND version = $3 AND seq = $4`,

  /** A deleted session: its rows under any of its roots, and its fence (no fence check: nobody holds it now). */
  forgetFiles: `DELETE FROM hands_workspace_files WHERE root = ANY($1::text[])`,
  forgetChunks: `DELETE FROM hands_workspace_chunks WHERE root = ANY($1::text[])`,
  forgetFence: `DELETE FROM hands_workspace_fences WHERE tenant_id = $1 AND session_id = $2`,

  /** Of the session ids $1, those with no session row (deleted while this worker was away). */
  missingSessions: `SELECT id FROM unnest($1::text[]) AS ids(id) WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = ids.id)`,
  /** Fences (so durable copies) of sessions that no longer exist, a bounded batch at a time. */
  orphanedFences: `SELECT tenant_id, session_id FROM hands_workspace_fences f
    WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = f.session_id) LIMIT $1`,
} as const;
