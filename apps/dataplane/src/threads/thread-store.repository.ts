import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { ID_PREFIXES, newId, type SessionAgent } from '@agentry/contracts';
import { EVENT_COLUMNS, type EventRow } from '../event-log/event-row.js';
import { SqlPool } from '../sql/sql-pool.js';
import type { RunSpec } from './thread-spec.js';

/** The tool calls a client answers (a confirmation, a custom tool's result). */
const TOOL_CALL_TYPES = ['agent.tool_use', 'agent.mcp_tool_use', 'agent.custom_tool_use'] as const;

/** An event id fixed by what caused the event, so writing it again after a crash is a no-op. */
export function derivedId(cause: string, purpose: string): string {
  return (
    ID_PREFIXES.sessionEvent + createHash('sha256').update(`${purpose}:${cause}`).digest('hex').slice(0, 26)
  );
}

/** The id a thread's tool call has on the primary stream, where it is cross-posted for the client to answer. */
export function crossPostedId(callId: string): string {
  return derivedId(callId, 'cross-post');
}

/** A session thread as stored: the public row joined with the session row it runs as (none for the primary). */
export interface ThreadRow {
  id: string;
  sessionId: string;
  parentThreadId: string | null;
  agentName: string | null;
  spec: { agent?: Record<string, unknown> };
  /** The run row's status, or the session's for the primary thread. */
  status: string;
  /** The run row's usage totals; for the primary thread, the whole session's. */
  usage: Record<string, number>;
  createdAt: Date;
  updatedAt: Date;
  archivedAt: Date | null;
  workflowRunId: string | null;
}

const THREAD_COLUMNS = `t.id, t.session_id AS "sessionId", t.parent_thread_id AS "parentThreadId", t.agent_name AS "agentName",
  t.spec, coalesce(r.status, p.status)::text AS status, coalesce(r.usage, p.usage) AS usage,
  t.created_at AS "createdAt", greatest(t.updated_at, coalesce(r.updated_at, p.updated_at)) AS "updatedAt", t.archived_at AS "archivedAt",
  t.workflow_run_id AS "workflowRunId"`;
const THREAD_FROM = `session_threads t JOIN sessions p ON p.id = t.session_id LEFT JOIN sessions r ON r.id = t.id`;

/**
 * Session threads. A child thread runs as a session row of its own whose id is the thread's id, so its
 * turns take the same lease, inbox, event log and recovery path as any session's.
 */
@Injectable()
export class ThreadStore {
  constructor(private readonly sql: SqlPool) {}

  /** The session's primary thread, created the first time the session delegates. */
  async ensurePrimary(sessionId: string, tenantId: string, agent: SessionAgent): Promise<string> {
    await this.sql.query(
      'threads.ensure-primary',
      `INSERT INTO session_threads (id, tenant_id, session_id, parent_thread_id, agent_name, spec)
       VALUES ($1, $2, $3, NULL, $4, $5) ON CONFLICT DO NOTHING`,
      [newId(ID_PREFIXES.sessionThread), tenantId, sessionId, agent.name, JSON.stringify({ agent })],
    );
    const rows = await this.sql.query<{ id: string }>(
      'threads.primary',
      'SELECT id FROM session_threads WHERE session_id = $1 AND parent_thread_id IS NULL',
      [sessionId],
    );
    return rows.rows[0]!.id;
  }

  /**
   * The thread of `agent` in the session, created with its session row on first use (one per agent name),
   * or, for a background task, the one thread its spawning tool call made. `created` tells whether this call made it.
   */
  async findOrCreate(
    parent: { sessionId: string; primaryThreadId: string },
    agent: SessionAgent,
    spec: RunSpec,
    task?: { toolUseId: string; input: string },
    shown: object = agent,
  ): Promise<{ id: string; created: boolean }> {
    const id = newId(ID_PREFIXES.sessionThread);
    const created = await this.sql.query<{ id: string }>(
      'threads.create',
      `WITH parent AS (SELECT * FROM sessions WHERE id = $2),
       thread AS (
         INSERT INTO session_threads (id, tenant_id, session_id, parent_thread_id, agent_name, spec, task_tool_use_id, task_input)
         SELECT $1, tenant_id, id, $3, $4, $5, $9, $10 FROM parent ON CONFLICT DO NOTHING RETURNING id)
       INSERT INTO sessions (id, tenant_id, namespace_id, agent_id, agent_version, environment_id, parent_session_id, created_by_id, spec)
       SELECT thread.id, p.tenant_id, p.namespace_id, $6, $7, p.environment_id, p.id, p.created_by_id, $8 FROM parent p, thread
       RETURNING id`,
      [
        id,
        parent.sessionId,
        parent.primaryThreadId,
        agent.name,
        JSON.stringify({ agent: shown }),
        agent.id,
        agent.version,
        JSON.stringify(spec),
        task?.toolUseId ?? null,
        task?.input ?? null,
      ],
    );
    if (created.rowCount === 1) return { id, created: true };
    const found = await this.sql.query<{ id: string }>(
      'threads.existing',
      `SELECT id FROM session_threads WHERE session_id = $1 AND parent_thread_id IS NOT NULL
       AND CASE WHEN $3::text IS NULL THEN agent_name = $2 AND task_tool_use_id IS NULL ELSE task_tool_use_id = $3 END`,
      [parent.sessionId, agent.name, task?.toolUseId ?? null],
    );
    return { id: found.rows[0]!.id, created: false };
  }

  /** The run agent of the session's inline-agent thread named `name`, if the session has one. */
  async inlineAgent(sessionId: string, name: string): Promise<SessionAgent | null> {
    const rows = await this.sql.query<{ agent: SessionAgent }>(
      'threads.inline-agent',
      `SELECT r.spec->'agent' AS agent FROM session_threads t JOIN sessions r ON r.id = t.id
       WHERE t.session_id = $1 AND t.parent_thread_id IS NOT NULL AND t.agent_name = $2
         AND t.task_tool_use_id IS NULL AND t.spec->'agent'->>'type' = 'inline'`,
      [sessionId, name],
    );
    return rows.rows[0]?.agent ?? null;
  }

  /**
   * Appends events the platform writes outside any turn's lease (a delegated message, a cross-post on the
   * primary stream). An event whose id is already in the log is not written again, so a re-run writes once.
   */
  async appendOnce(
    sessionId: string,
    tenantId: string,
    events: Array<{ id: string; type: string; payload: Record<string, unknown>; processed: boolean }>,
  ): Promise<EventRow[]> {
    const rows = await this.sql.query<EventRow>(
      'threads.append-once',
      `WITH fresh AS (
         SELECT e.* FROM unnest($3::text[], $4::text[], $5::jsonb[], $6::bool[]) WITH ORDINALITY AS e(id, type, payload, processed, ord)
         WHERE NOT EXISTS (SELECT 1 FROM session_events x WHERE x.id = e.id)),
       bumped AS (
         UPDATE sessions SET last_seq = last_seq + (SELECT count(*) FROM fresh), updated_at = now()
         -- By primary key alone (see SessionEventsRepository).
         WHERE id = $1 AND tenant_id IS NOT DISTINCT FROM $2 AND EXISTS (SELECT 1 FROM fresh) RETURNING last_seq)
       INSERT INTO session_events (id, tenant_id, session_id, seq, type, payload, processed_at, created_at)
       SELECT f.id, $2, $1, bumped.last_seq - (SELECT count(*) FROM fresh) + row_number() OVER (ORDER BY f.ord), f.type, f.payload,
              CASE WHEN f.processed THEN now() END, now()
       FROM bumped, fresh f
       RETURNING ${EVENT_COLUMNS}`,
      [
        sessionId,
        tenantId,
        events.map((e) => e.id),
        events.map((e) => e.type),
        events.map((e) => JSON.stringify(e.payload)),
        events.map((e) => e.processed),
      ],
    );
    return rows.rows.sort((a, b) => a.seq - b.seq);
  }

  /** The events of a log with the given ids, in order (a thread's pending tool calls, to cross-post). */
  async eventsOf(sessionId: string, ids: readonly string[]): Promise<EventRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.sql.query<EventRow>(
      'threads.events-of',
      `SELECT ${EVENT_COLUMNS} FROM session_events WHERE session_id = $1 AND id = ANY($2::text[]) ORDER BY seq`,
      [sessionId, [...ids]],
    );
    return rows.rows;
  }

  /**
   * The child thread of the session whose log holds the tool call `eventId` (an `agent.*tool_use`), or whose
   * call was cross-posted to the session's own log under `eventId`: the thread and the call's id in its log.
   */
  async threadCallOf(
    sessionId: string,
    eventId: string,
  ): Promise<{ threadId: string; callId: string } | null> {
    const rows = await this.sql.query<{ threadId: string; callId: string; crossPosted: boolean }>(
      'threads.call-of',
      `SELECT e.session_id AS "threadId", e.id AS "callId", false AS "crossPosted"
       FROM session_events e JOIN session_threads t ON t.id = e.session_id AND t.session_id = $1
       WHERE e.id = $2 AND e.type = ANY($3::text[])
       UNION ALL
       SELECT payload->>'session_thread_id', id, true FROM session_events
       WHERE id = $2 AND session_id = $1 AND type = ANY($3::text[]) AND payload ? 'session_thread_id'`,
      [sessionId, eventId, [...TOOL_CALL_TYPES]],
    );
    const found = rows.rows[0];
    if (!found?.crossPosted) return found ? { threadId: found.threadId, callId: found.callId } : null;
    const calls = await this.sql.query<{ id: string }>(
      'threads.calls',
      'SELECT id FROM session_events WHERE session_id = $1 AND type = ANY($2::text[])',
      [found.threadId, [...TOOL_CALL_TYPES]],
    );
    const original = calls.rows.find((c) => crossPostedId(c.id) === eventId);
    return original ? { threadId: found.threadId, callId: original.id } : null;
  }

  async list(
    sessionId: string,
    options: { limit: number; offset: number; statuses?: string[] },
  ): Promise<ThreadRow[]> {
    const rows = await this.sql.query<ThreadRow>(
      'threads.list',
      `SELECT ${THREAD_COLUMNS} FROM ${THREAD_FROM}
       WHERE t.session_id = $1 AND ($2::text[] IS NULL OR coalesce(r.status, p.status)::text = ANY($2))
       ORDER BY t.parent_thread_id IS NOT NULL, t.created_at, t.id LIMIT $3 OFFSET $4`,
      [sessionId, options.statuses?.length ? options.statuses : null, options.limit, options.offset],
    );
    return rows.rows;
  }

  /** The session's child threads that still take input (not archived). */
  async liveChildren(sessionId: string): Promise<string[]> {
    const rows = await this.sql.query<{ id: string }>(
      'threads.live-children',
      `SELECT id FROM session_threads WHERE session_id = $1 AND parent_thread_id IS NOT NULL AND archived_at IS NULL
       ORDER BY created_at, id`,
      [sessionId],
    );
    return rows.rows.map((r) => r.id);
  }

  async find(sessionId: string, threadId: string): Promise<ThreadRow | null> {
    const rows = await this.sql.query<ThreadRow>(
      'threads.find',
      `SELECT ${THREAD_COLUMNS} FROM ${THREAD_FROM} WHERE t.session_id = $1 AND t.id = $2`,
      [sessionId, threadId],
    );
    return rows.rows[0] ?? null;
  }

  /** Archives the thread and the session row it runs as: it takes no more input. */
  async archive(sessionId: string, threadId: string): Promise<void> {
    await this.sql.query(
      'threads.archive',
      `WITH t AS (UPDATE session_threads SET archived_at = coalesce(archived_at, now()), updated_at = now()
                  WHERE session_id = $1 AND id = $2 RETURNING id)
       UPDATE sessions SET archived_at = coalesce(archived_at, now()) WHERE id IN (SELECT id FROM t) AND parent_session_id = $1`,
      [sessionId, threadId],
    );
  }
}
