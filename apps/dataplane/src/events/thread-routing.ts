import { Injectable } from '@nestjs/common';
import { AppError, type InboundEvent } from '@agentry/contracts';
import { ThreadStore } from '../threads/thread-store.repository.js';

/** An inbound event of the session that a child thread acts on: the threads, and what each is sent. */
export interface ThreadRoute {
  threadIds: string[];
  /** The event as the thread's inbox holds it (ids of the thread's own log, no `session_thread_id`). */
  forward: InboundEvent;
}

type ClientAnswer = Extract<InboundEvent, { type: 'user.tool_confirmation' | 'user.custom_tool_result' }>;

/**
 * Routes what a client sends a multi-agent session (CMA): an interrupt naming a child thread stops that
 * thread alone, one naming none stops the primary and every thread; a confirmation or custom tool result
 * goes to the thread whose call it answers, found by the call's id (the thread's own, or the one it was
 * cross-posted under). The session's log records each with the `session_thread_id` it was routed to.
 */
@Injectable()
export class ThreadRouting {
  constructor(private readonly threads: ThreadStore) {}

  async routes(sessionId: string, inbound: InboundEvent[]): Promise<Map<InboundEvent, ThreadRoute>> {
    const routed = new Map<InboundEvent, ThreadRoute>();
    for (const event of inbound) {
      const route = await this.routeOf(sessionId, event);
      if (route) routed.set(event, route);
    }
    return routed;
  }

  private async routeOf(sessionId: string, event: InboundEvent): Promise<ThreadRoute | null> {
    if (event.type === 'user.interrupt') {
      if (!event.session_thread_id) {
        const threadIds = await this.threads.liveChildren(sessionId);
        return threadIds.length > 0 ? { threadIds, forward: { type: 'user.interrupt' } } : null;
      }
      const thread = await this.named(sessionId, event.session_thread_id);
      return thread.child ? { threadIds: [thread.id], forward: { type: 'user.interrupt' } } : null;
    }
    if (event.type === 'user.tool_confirmation' || event.type === 'user.custom_tool_result')
      return this.answerRoute(sessionId, event);
    return null;
  }

  private async answerRoute(sessionId: string, event: ClientAnswer): Promise<ThreadRoute | null> {
    const { session_thread_id: claimed, ...rest } = event;
    const field = event.type === 'user.tool_confirmation' ? 'tool_use_id' : 'custom_tool_use_id';
    const callId = event.type === 'user.tool_confirmation' ? event.tool_use_id : event.custom_tool_use_id;
    const named = claimed ? await this.named(sessionId, claimed) : null;
    const call = await this.threads.threadCallOf(sessionId, callId);
    if (!call) {
      if (named?.child)
        throw new AppError('INVALID_REQUEST', `${field}: thread ${named.id} has no tool call ${callId}`);
      return null;
    }
    if (named && named.id !== call.threadId)
      throw new AppError(
        'INVALID_REQUEST',
        `session_thread_id: tool call ${callId} belongs to thread ${call.threadId}, not ${named.id}`,
      );
    return { threadIds: [call.threadId], forward: { ...rest, [field]: call.callId } as InboundEvent };
  }

  /** A thread of the session the client named; one it does not have is a 404. */
  private async named(sessionId: string, threadId: string): Promise<{ id: string; child: boolean }> {
    const thread = await this.threads.find(sessionId, threadId);
    if (!thread)
      throw new AppError(
        'NOT_FOUND',
        `session_thread_id: thread ${threadId} not found in session ${sessionId}`,
      );
    return { id: thread.id, child: thread.parentThreadId !== null };
  }
}
