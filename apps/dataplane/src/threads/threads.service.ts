import { Injectable } from '@nestjs/common';
import {
  AppError,
  toUsageSnapshot,
  type Actor,
  type ListThreadsRpcRequest,
  type SessionThread,
} from '@agentry/contracts';
import { SessionStateRepository } from '../sessions/session-state.repository.js';
import { EventPublisher } from '../event-log/event-publisher.js';
import { toStoredEvent } from '../event-log/event-row.mapper.js';
import { derivedId, ThreadStore, type ThreadRow } from './thread-store.repository.js';

/** `/v1/sessions/{id}/threads`: the session's primary thread and one per agent it delegated to. */
@Injectable()
export class ThreadsService {
  constructor(
    private readonly store: ThreadStore,
    private readonly sessions: SessionStateRepository,
    private readonly publisher: EventPublisher,
  ) {}

  async list(
    actor: Actor,
    request: ListThreadsRpcRequest,
  ): Promise<{ data: SessionThread[]; hasMore: boolean }> {
    await this.requireSession(actor, request.sessionId);
    const all = await this.store.list(request.sessionId, { limit: 1000, offset: 0 });
    const rows = await this.store.list(request.sessionId, {
      limit: request.limit + 1,
      offset: request.offset,
      ...(request.statuses ? { statuses: request.statuses } : {}),
    });
    return {
      data: rows.slice(0, request.limit).map((row) => toThread(row, all)),
      hasMore: rows.length > request.limit,
    };
  }

  async get(actor: Actor, sessionId: string, threadId: string): Promise<SessionThread> {
    await this.requireSession(actor, sessionId);
    const row = await this.store.find(sessionId, threadId);
    if (!row) throw new AppError('NOT_FOUND', `Thread ${threadId} not found in session ${sessionId}`);
    return toThread(
      row,
      row.parentThreadId === null ? await this.store.list(sessionId, { limit: 1000, offset: 0 }) : [],
    );
  }

  async archive(actor: Actor, sessionId: string, threadId: string): Promise<SessionThread> {
    if (actor.role === 'viewer') throw new AppError('PERMISSION_DENIED', 'This key or user may only read');
    const thread = await this.get(actor, sessionId, threadId);
    if (thread.parent_thread_id === null)
      throw new AppError(
        'INVALID_REQUEST',
        `Thread ${threadId} is the session's primary thread; archive the session instead`,
      );
    if (thread.status === 'running')
      throw new AppError('CONFLICT', `Thread ${threadId} is running; interrupt it and wait until it is idle`);
    await this.store.archive(sessionId, threadId);
    await this.terminated(actor.tenantId, sessionId, thread);
    return this.get(actor, sessionId, threadId);
  }

  /**
   * An archived thread takes no more input: `session.thread_status_terminated` on its own stream and on the
   * primary's, once each (their ids are fixed by the thread, so archiving again writes nothing).
   */
  private async terminated(tenantId: string, sessionId: string, thread: SessionThread): Promise<void> {
    const payload = {
      session_thread_id: thread.id,
      agent_name: (thread.agent as { name?: string }).name ?? '',
    };
    for (const [log, purpose] of [
      [thread.id, 'terminated'],
      [sessionId, 'terminated-cross-post'],
    ] as const) {
      const rows = await this.store.appendOnce(log, tenantId, [
        {
          id: derivedId(thread.id, purpose),
          type: 'session.thread_status_terminated',
          payload,
          processed: true,
        },
      ]);
      this.publisher.published(log, rows.map(toStoredEvent));
    }
  }

  private async requireSession(actor: Actor, sessionId: string): Promise<void> {
    const session = await this.sessions.findForTenant(sessionId, actor.tenantId, actor.namespaceId);
    if (!session || sessionId.startsWith('sthr_'))
      throw new AppError('NOT_FOUND', `Session ${sessionId} not found`);
  }
}

/** The wire thread; the primary thread's usage is the session's minus what its child threads used. */
function toThread(row: ThreadRow, siblings: ThreadRow[]): SessionThread {
  let usage = row.usage;
  if (row.parentThreadId === null) {
    usage = { ...row.usage };
    for (const child of siblings.filter((t) => t.parentThreadId !== null)) {
      for (const [key, value] of Object.entries(child.usage)) usage[key] = (usage[key] ?? 0) - value;
    }
  }
  const status = row.status === 'archived' ? 'idle' : row.status;
  return {
    type: 'session_thread',
    id: row.id,
    session_id: row.sessionId,
    parent_thread_id: row.parentThreadId,
    agent: shownAgent(row.spec.agent),
    status: status as SessionThread['status'],
    stats: null,
    usage: Object.keys(usage).length === 0 ? null : toUsageSnapshot(usage),
    workflow_run_id: row.workflowRunId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    archived_at: row.archivedAt?.toISOString() ?? null,
  };
}

/** The thread's agent as CMA shows it: an agent snapshot carries no `multiagent` (threads are depth one). */
function shownAgent(agent: Record<string, unknown> | undefined): SessionThread['agent'] {
  if (!agent) return { type: 'agent' };
  const { multiagent: _multiagent, ...shown } = agent;
  return shown as SessionThread['agent'];
}
