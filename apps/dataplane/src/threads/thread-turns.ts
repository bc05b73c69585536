import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { ID_PREFIXES, newId, type SessionAgent, type StopReason } from '@agentry/contracts';
import type { HarnessTool } from '@agentry/harness';
import { CLOCK, LOGGER, type Clock, type Logger } from '@agentry/platform';
import { EventPublisher } from '../events/event-publisher.js';
import { toStoredEvent } from '../events/event-row.mapper.js';
import { SessionEventsRepository } from '../events/session-events.repository.js';
import type { SessionState } from '../sessions/session-state.repository.js';
import { SessionWakeups } from '../turns/session-wakeups.js';
import type { TurnWriter } from '../turns/turn-writer.js';
import { delegationTool } from './delegation.tool.js';
import { createTeamTools } from './team.tools.js';
import { ThreadRoster } from './thread-roster.js';
import { threadLinkOf, type RunSpec, type ThreadLink } from './thread-spec.js';
import { ThreadStore } from './thread-store.repository.js';
import { ThreadTasks } from './thread-tasks.repository.js';

type Content = Array<Record<string, unknown>>;

/**
 * What turns of a multi-agent session do besides an ordinary turn: the primary's delegation tool, and
 * for a thread's turn the cross-posts on the primary stream (its status) and its answer to the primary.
 */
@Injectable()
export class ThreadTurns {
  constructor(
    private readonly store: ThreadStore,
    private readonly roster: ThreadRoster,
    private readonly tasks: ThreadTasks,
    private readonly events: SessionEventsRepository,
    private readonly publisher: EventPublisher,
    private readonly wakeups: SessionWakeups,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * The delegation tool, and the Team Lead tools the agent enables, for a primary whose agent declares
   * callable agents (threads never delegate: depth one).
   */
  async toolsFor(session: SessionState, writer: TurnWriter): Promise<HarnessTool[]> {
    const spec = session.spec as RunSpec;
    if (spec.thread || !spec.agent.multiagent) return [];
    const callable = await this.roster.callable(session.tenantId, spec.agent);
    if (callable.length === 0) return [];
    const team = createTeamTools(
      await this.roster.teamTools(session.tenantId, spec.agent),
      callable,
      {
        spawn: (agent, task, toolUseId) =>
          this.delegate(session, writer, agent, task, toolUseId, true).then(({ threadId }) => ({
            taskId: threadId,
          })),
        list: () => this.tasks.list(session.id),
        collect: (toolUseId, ids) => this.tasks.collect(session.id, toolUseId, ids),
      },
      { clock: this.clock },
    );
    return [
      delegationTool(callable, {
        send: (agent, message, toolUseId) => this.delegate(session, writer, agent, message, toolUseId),
      }),
      ...team,
    ];
  }

  /** A thread's turn started, or resumed after its runner died: the primary stream shows it. */
  async started(session: SessionState, resumed: boolean): Promise<void> {
    const link = threadLinkOf(session.spec);
    if (!link) return;
    const status = (type: string) => ({
      id: newId(ID_PREFIXES.sessionEvent),
      type,
      payload: { session_thread_id: session.id, agent_name: link.agentName },
      processed: true,
    });
    await this.crossPost(link, session.tenantId, [
      ...(resumed ? [status('session.thread_status_rescheduled')] : []),
      status('session.thread_status_running'),
    ]);
  }

  /**
   * A thread's turn is about to close: its last answer goes to the primary as `agent.thread_message_received`
   * (once per message the thread was sent, whatever crashes come between), and its idle status is cross-posted.
   */
  async finishing(session: SessionState, writer: TurnWriter, stopReason: StopReason): Promise<void> {
    const link = threadLinkOf(session.spec);
    if (!link) return;
    await writer.flush();
    const tail = (await this.events.fromLast(session.id, 'agent.thread_message_received')).map(toStoredEvent);
    const received = tail[0]?.event.type === 'agent.thread_message_received' ? tail[0].event : undefined;
    const answer = tail.findLast((e) => e.event.type === 'agent.message')?.event as
      { content?: Content } | undefined;
    const idle = {
      id:
        received && stopReason.type === 'end_turn'
          ? derivedId(received.id, 'idle')
          : newId(ID_PREFIXES.sessionEvent),
      type: 'session.thread_status_idle',
      payload: {
        session_thread_id: session.id,
        agent_name: link.agentName,
        stop_reason: stopReason,
        stop_details: null,
      },
      processed: true,
    };
    if (link.task) {
      await this.finishTask(session.id, stopReason, answer?.content);
      await this.crossPost(link, session.tenantId, [idle]);
      return;
    }
    if (!received || stopReason.type !== 'end_turn' || !answer?.content) {
      await this.crossPost(link, session.tenantId, [idle]);
      return;
    }
    await writer.emit({
      type: 'agent.thread_message_sent',
      content: answer.content,
      to_session_thread_id: link.primaryThreadId,
      to_agent_name: null,
    });
    await this.crossPost(link, session.tenantId, [
      idle,
      {
        id: derivedId(received.id, 'reply'),
        type: 'agent.thread_message_received',
        payload: {
          content: answer.content,
          from_session_thread_id: session.id,
          from_agent_name: link.agentName,
        },
        processed: false,
      },
    ]);
    await this.wakeups.kick(link.sessionId, session.tenantId);
  }

  /**
   * A background task's result is kept for the primary to collect: the answer when the turn ended, why it
   * stopped otherwise. A turn waiting on a confirmation has not finished.
   */
  private async finishTask(
    threadId: string,
    stopReason: StopReason,
    answer: Content | undefined,
  ): Promise<void> {
    if (stopReason.type === 'requires_action') return;
    if (stopReason.type === 'end_turn') await this.tasks.finish(threadId, 'completed', answer ?? []);
    else
      await this.tasks.finish(threadId, 'failed', [
        { type: 'text', text: `The child session stopped: ${stopReason.type}.` },
      ]);
  }

  /** Sends `message` to the agent's thread, or for a background task (`task`) to a new thread of its own. */
  private async delegate(
    session: SessionState,
    writer: TurnWriter,
    agent: SessionAgent,
    message: string,
    toolUseId: string,
    task = false,
  ): Promise<{ threadId: string }> {
    const spec = session.spec as RunSpec;
    const primaryThreadId = await this.store.ensurePrimary(session.id, session.tenantId, spec.agent);
    const link: ThreadLink = {
      sessionId: session.id,
      primaryThreadId,
      agentName: agent.name,
      ...(task ? { task } : {}),
    };
    const thread = await this.store.findOrCreate(
      { sessionId: session.id, primaryThreadId },
      agent,
      { agent, environment: spec.environment, thread: link },
      task ? { toolUseId, input: message } : undefined,
    );
    if (thread.created) {
      await writer.emit({
        type: 'session.thread_created',
        session_thread_id: thread.id,
        agent_name: agent.name,
        workflow_run_id: null,
      });
    }
    const content = [{ type: 'text', text: message }];
    const delivered = await this.store.appendOnce(thread.id, session.tenantId, [
      {
        id: derivedId(toolUseId, 'delegation'),
        type: 'agent.thread_message_received',
        payload: { content, from_session_thread_id: primaryThreadId, from_agent_name: null },
        processed: false,
      },
    ]);
    this.publisher.published(thread.id, delivered.map(toStoredEvent));
    await writer.emit({
      type: 'agent.thread_message_sent',
      content,
      to_session_thread_id: thread.id,
      to_agent_name: agent.name,
    });
    await this.wakeups.kick(thread.id, session.tenantId);
    this.logger.info(
      { sessionId: session.id, threadId: thread.id, agent: agent.name },
      'delegated to a session thread',
    );
    return { threadId: thread.id };
  }

  private async crossPost(
    link: ThreadLink,
    tenantId: string,
    events: Parameters<ThreadStore['appendOnce']>[2],
  ): Promise<void> {
    const rows = await this.store.appendOnce(link.sessionId, tenantId, events);
    this.publisher.published(link.sessionId, rows.map(toStoredEvent));
  }
}

/** An event id fixed by what caused the event, so writing it again after a crash is a no-op. */
function derivedId(cause: string, purpose: string): string {
  return (
    ID_PREFIXES.sessionEvent + createHash('sha256').update(`${purpose}:${cause}`).digest('hex').slice(0, 26)
  );
}
