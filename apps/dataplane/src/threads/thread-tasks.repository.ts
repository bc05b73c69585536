import { Injectable } from '@nestjs/common';
import { SqlPool } from '../sql/sql-pool.js';

export type ThreadTaskStatus = 'running' | 'completed' | 'failed';

/** A background task of a session (sessions_spawn): a session thread of its own, and its result once finished. */
export interface ThreadTask {
  id: string;
  agentName: string;
  task: string;
  status: ThreadTaskStatus;
  /** The child's last answer (completed) or why it stopped (failed); null while running. */
  result: Array<Record<string, unknown>> | null;
  /** The tool call that collected the result, if one did. */
  consumedBy: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

const TASK_COLUMNS = `id, agent_name AS "agentName", coalesce(task_input, '') AS task,
  coalesce(result_status, 'running') AS status, result, consumed_by AS "consumedBy", created_at AS "createdAt", finished_at AS "finishedAt"`;

/**
 * The results of a session's background tasks, kept on their thread rows until the primary collects
 * them. A result is collected once: by the first tool call that takes it, and by a re-run of that same
 * call after a crash (so the re-run answers as the first run would have), never by another call.
 */
@Injectable()
export class ThreadTasks {
  constructor(private readonly sql: SqlPool) {}

  async list(sessionId: string): Promise<ThreadTask[]> {
    const rows = await this.sql.query<ThreadTask>(
      'thread-tasks.list',
      `SELECT ${TASK_COLUMNS} FROM session_threads WHERE session_id = $1 AND task_tool_use_id IS NOT NULL ORDER BY created_at, id`,
      [sessionId],
    );
    return rows.rows;
  }

  /** Records how the task's thread ended; only the first ending counts (a resumed turn ends again). */
  async finish(
    threadId: string,
    status: Exclude<ThreadTaskStatus, 'running'>,
    result: Array<Record<string, unknown>>,
  ): Promise<void> {
    await this.sql.query(
      'thread-tasks.finish',
      `UPDATE session_threads SET result_status = $2, result = $3, finished_at = now(), updated_at = now()
       WHERE id = $1 AND task_tool_use_id IS NOT NULL AND finished_at IS NULL`,
      [threadId, status, JSON.stringify(result)],
    );
  }

  /**
   * Takes the finished results not yet collected (of `ids` only, when given) for the tool call `toolUseId`,
   * together with those that call took before.
   */
  async collect(sessionId: string, toolUseId: string, ids?: readonly string[]): Promise<ThreadTask[]> {
    const rows = await this.sql.query<ThreadTask>(
      'thread-tasks.collect',
      `WITH taken AS (
         UPDATE session_threads SET consumed_by = $2, consumed_at = now()
         WHERE session_id = $1 AND task_tool_use_id IS NOT NULL AND finished_at IS NOT NULL AND consumed_by IS NULL
           AND ($3::text[] IS NULL OR id = ANY($3))
         RETURNING ${TASK_COLUMNS})
       SELECT * FROM taken
       UNION ALL
       SELECT ${TASK_COLUMNS} FROM session_threads WHERE session_id = $1 AND consumed_by = $2 AND ($3::text[] IS NULL OR id = ANY($3))`,
      [sessionId, toolUseId, ids ? [...ids] : null],
    );
    return rows.rows.sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
    );
  }
}
