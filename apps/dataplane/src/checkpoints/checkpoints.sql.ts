/**
 * Statements of session checkpoints. A checkpoint's workspace is the session's durable Hands copy as the
 * turn closed, read from `hands_workspace_files` (and `hands_workspace_chunks` for large files): each file
 * names its content by SHA-256, and the content goes into `session_checkpoint_blobs` once per tenant, so a
 * checkpoint after a one-file change stores that file's content and nothing else. Blob writers take the
 * tenant's advisory lock shared, the sweep of unreferenced blobs takes it exclusively: a blob another
 * checkpoint is naming right now is never swept from under it.
 */
const HASH = `encode(sha256(content), 'hex')`;

export const CHECKPOINT_SQL = {
  lockShared: `SELECT pg_advisory_xact_lock_shared(hashtext('session_checkpoint_blobs:' || $1))`,
  lockExclusive: `SELECT pg_advisory_xact_lock(hashtext('session_checkpoint_blobs:' || $1))`,

  /**
   * Checkpoint $4 of session $5 (tenant $1), before its event is known (the turn still closing), with the
   * entries of every row under roots $2 (workspace) and $3 (shell state), in one statement; says whether
   * any entry has content, whose blobs `storeBlobs` then stores. The entries name their blobs before the
   * blobs are stored: nothing reads a checkpoint before it is sealed, and `storeBlobs` runs under the
   * tenant's lock, after any sweep that began without seeing these entries.
   */
  capture: `WITH pending AS (
      INSERT INTO session_checkpoints (id, tenant_id, session_id) VALUES ($4, $1, $5)
    ), files AS (
      INSERT INTO session_checkpoint_files
        (checkpoint_id, tenant_id, root, path, kind, mode, link_target, size, chunked, blobs)
      SELECT $4, $1, CASE WHEN f.root = $2 THEN 'workspace' ELSE 'shell' END, f.path, f.kind, f.mode,
        f.link_target, f.size, f.kind = 'file' AND f.content IS NULL,
        CASE WHEN f.kind <> 'file' THEN ARRAY[]::text[]
          WHEN f.content IS NOT NULL THEN ARRAY[encode(sha256(f.content), 'hex')]
          ELSE ARRAY(SELECT encode(sha256(c.content), 'hex') FROM hands_workspace_chunks c
            WHERE c.root = f.root AND c.path = f.path AND c.version = f.version ORDER BY c.seq) END
      FROM hands_workspace_files f WHERE f.root IN ($2, $3)
      RETURNING kind
    )
    SELECT EXISTS (SELECT 1 FROM files WHERE kind = 'file') AS has_content`,

  /** Content of the files under roots $2 and $3 not yet stored for tenant $1. */
  storeBlobs: `INSERT INTO session_checkpoint_blobs (tenant_id, hash, content, size)
    SELECT DISTINCT ON (hash) $1, hash, content, length(content) FROM (
      SELECT ${HASH} AS hash, content FROM hands_workspace_files
        WHERE root IN ($2, $3) AND kind = 'file' AND content IS NOT NULL
      UNION ALL
      SELECT encode(sha256(c.content), 'hex'), c.content FROM hands_workspace_chunks c
        JOIN hands_workspace_files f ON f.root = c.root AND f.path = c.path AND f.version = c.version
        WHERE f.root IN ($2, $3) AND f.content IS NULL) AS s
    ON CONFLICT (tenant_id, hash) DO NOTHING`,

  /**
   * The turn's closing event $2 is committed: checkpoint $1 sits on it, and of the session's other sealed
   * checkpoints only the newest $3 - 1 are kept (this one is not sealed yet in the statement's snapshot).
   */
  sealAndPrune: `WITH sealed AS (
      UPDATE session_checkpoints c SET event_id = e.id, seq = e.seq
      FROM session_events e WHERE c.id = $1 AND e.id = $2 AND e.session_id = c.session_id
      RETURNING c.session_id
    ), pruned AS (
      DELETE FROM session_checkpoints WHERE session_id = (SELECT session_id FROM sealed) AND seq IS NOT NULL
        AND id NOT IN (SELECT id FROM session_checkpoints
          WHERE session_id = (SELECT session_id FROM sealed) AND seq IS NOT NULL ORDER BY seq DESC LIMIT $3 - 1)
      RETURNING id
    )
    SELECT (SELECT count(*) FROM pruned)::int AS pruned`,
  drop: `DELETE FROM session_checkpoints WHERE id = $1`,

  /** Blobs of tenant $1 no checkpoint names any more. */
  sweepBlobs: `DELETE FROM session_checkpoint_blobs b WHERE b.tenant_id = $1 AND NOT EXISTS (
      SELECT 1 FROM session_checkpoint_files f WHERE f.blobs @> ARRAY[b.hash] AND f.tenant_id = $1)`,

  /** Whether session $1 is one of tenant $2's, namespace $3's (not a thread's run-time row). */
  visible: `SELECT 1 FROM sessions WHERE id = $1 AND tenant_id = $2 AND namespace_id = $3 AND parent_session_id IS NULL`,

  list: `SELECT id, session_id, event_id, seq::float8 AS seq, created_at FROM session_checkpoints
    WHERE session_id = $1 AND seq IS NOT NULL ORDER BY seq LIMIT $2`,

  /** Checkpoint $2 (by id) or the one on event $3, of session $1, once sealed. */
  find: `SELECT id, event_id, seq::float8 AS seq,
      EXISTS (SELECT 1 FROM session_checkpoint_files f WHERE f.checkpoint_id = c.id) AS has_files
    FROM session_checkpoints c
    WHERE session_id = $1 AND seq IS NOT NULL AND (id = $2 OR event_id = $3)`,

  /** The session's row, locked: no turn starts on it while a fork or rollback reads it. */
  lockSession: `SELECT tenant_id, namespace_id, status, parent_session_id,
      EXISTS (SELECT 1 FROM session_events e WHERE e.session_id = s.id AND e.processed_at IS NULL) AS has_input,
      EXISTS (SELECT 1 FROM session_threads t WHERE t.session_id = s.id) AS has_threads,
      EXISTS (SELECT 1 FROM hands_workspace_fences h WHERE h.session_id = s.id) AS has_hands
    FROM sessions s WHERE id = $1 FOR UPDATE`,

  /** Whether the context was compacted after seq $2: the log a turn reads starts at the compaction. */
  compactedAfter: `SELECT EXISTS (SELECT 1 FROM session_events WHERE session_id = $1 AND seq > $2
      AND type = 'agent.thread_context_compacted') AS compacted`,

  /** The new session of a fork: the source's definition with the agent $3/$4/$5 and its log up to seq $6. */
  insertFork: `INSERT INTO sessions (id, tenant_id, namespace_id, agent_id, agent_version, environment_id,
      created_by_id, created_by_api_key_id, title, metadata, spec, resources, vault_ids, budget, last_seq, updated_at)
    SELECT $2, tenant_id, namespace_id, $3, $4, environment_id, $7, $8, title, metadata, $5::jsonb, resources,
      vault_ids, budget, $6, now()
    FROM sessions WHERE id = $1`,

  logUpTo: `SELECT id, seq::float8 AS seq, type, payload, processed_at, created_at FROM session_events
    WHERE session_id = $1 AND seq <= $2 ORDER BY seq`,

  /** Events of session $1, handled already: the fork's copy of its source's log. */
  insertEvents: `INSERT INTO session_events (id, tenant_id, session_id, seq, type, payload, processed_at, created_at)
    SELECT e.id, $2, $1, e.seq, e.type, e.payload, coalesce(e.processed_at, now()), e.created_at
    FROM unnest($3::text[], $4::bigint[], $5::text[], $6::jsonb[], $7::timestamptz[], $8::timestamptz[])
      AS e(id, seq, type, payload, processed_at, created_at)`,

  /** One event appended to session $1 outside any turn, under the row lock the caller holds. */
  appendEvent: `WITH bumped AS (UPDATE sessions SET last_seq = last_seq + 1, updated_at = now() WHERE id = $1
      RETURNING last_seq, tenant_id)
    INSERT INTO session_events (id, tenant_id, session_id, seq, type, payload, processed_at)
    SELECT $2, tenant_id, $1, last_seq, $3, $4::jsonb, now() FROM bumped
    RETURNING id, seq::float8 AS seq, type, payload, processed_at AS "processedAt", created_at AS "createdAt"`,
} as const;
