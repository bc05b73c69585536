/**
 * A checkpoint's workspace written back as a session's durable Hands copy: $1 tenant, $2 the session's
 * workspace root, $3 its shell-state root, $4 the checkpoint. Content comes from the checkpoint's blobs by
 * hash; a file that was large when checkpointed goes back in chunks (version 1), the others inline.
 */
const ROOT = `CASE WHEN e.root = 'workspace' THEN $2 ELSE $3 END`;

export const CHECKPOINT_RESTORE_SQL = {
  /** The checkpoint store's sweep takes this lock exclusively: no blob goes while it is read here. */
  lockBlobs: `SELECT pg_advisory_xact_lock_shared(hashtext('session_checkpoint_blobs:' || $1))`,
  /** The checkpoint exists (for tenant $1); a restore of a missing one would empty the workspace. */
  exists: `SELECT 1 FROM session_checkpoints WHERE id = $2 AND tenant_id = $1`,
  clearChunks: `DELETE FROM hands_workspace_chunks WHERE root IN ($1, $2)`,
  clearFiles: `DELETE FROM hands_workspace_files WHERE root IN ($1, $2)`,
  files: `INSERT INTO hands_workspace_files
      (tenant_id, root, path, parent, kind, mode, link_target, content, size, version)
    SELECT $1, ${ROOT}, e.path,
      CASE WHEN strpos(e.path, '/') > 0 THEN regexp_replace(e.path, '/[^/]*$', '') ELSE '' END,
      e.kind, e.mode, e.link_target,
      CASE WHEN e.kind = 'file' AND NOT e.chunked THEN coalesce(
        (SELECT b.content FROM session_checkpoint_blobs b WHERE b.tenant_id = $1 AND b.hash = e.blobs[1]),
        ''::bytea) END,
      e.size, 1
    FROM session_checkpoint_files e WHERE e.checkpoint_id = $4 AND e.tenant_id = $1`,
  chunks: `INSERT INTO hands_workspace_chunks (root, path, version, seq, content)
    SELECT ${ROOT}, e.path, 1, u.ord - 1, b.content
    FROM session_checkpoint_files e
    CROSS JOIN LATERAL unnest(e.blobs) WITH ORDINALITY AS u(hash, ord)
    JOIN session_checkpoint_blobs b ON b.tenant_id = $1 AND b.hash = u.hash
    WHERE e.checkpoint_id = $4 AND e.tenant_id = $1 AND e.chunked`,
} as const;
