import { Inject, Injectable } from '@nestjs/common';
import { ID_PREFIXES, newId, type SessionAgent, type StopReason } from '@agentry/contracts';
import { loadSubagentSpecs, type HarnessTool } from '@agentry/harness';
import type { WorkspaceFs } from '@agentry/workspace';
import { CLOCK, LOGGER, type Clock, type Logger } from '@agentry/platform';
import { EventPublisher } from '../event-log/event-publisher.js';
import { toStoredEvent } from '../event-log/event-row.mapper.js';
import { SessionEventsRepository } from '../event-log/session-events.repository.js';
import type { SessionState } from '../sessions/session-state.repository.js';
import { SessionWakeups } from '../drain/session-wakeups.js';
import type { TurnWriter } from '../sessions/turn-writer.js';
import { advisorModelOf, advisorTool } from './advisor.tool.js';
import { AdvisorThreads, type AdvisorModelFor } from './advisor-threads.js';
import { delegationTool } from './delegation.tool.js';
import { inlineAgentsEnabled, workflowsOf, type ShownInlineAgent } from './inline-agents.js';
import { subagentThreadTools } from './subagent-threads.tools.js';
import { createTeamTools } from './team.tools.js';
import { ThreadRoster } from './thread-roster.js';
import { threadLinkOf, type RunSpec, type ThreadLink } from './thread-spec.js';
import { crossPostedId, derivedId, ThreadStore } from './thread-store.repository.js';
import { ThreadTasks } from './thread-tasks.repository.js';
import { workflowTool } from './workflow.tool.js';
import { WorkflowRuns } from './workflow-runs.js';

type Content = Array<Record<string, unknown>>;
type CrossPost = Parameters<ThreadStore['appendOnce']>[2][number];

/** A session's status events and the thread status events a thread's run row writes instead. */
const THREAD_STATUSES: Record<string, string> = {
  'session.status_running': 'session.thread_status_running',
  'session.status_idle': 'session.thread_status_idle',
  'session.status_rescheduled': 'session.thread_status_rescheduled',
  'session.status_terminated': 'session.thread_status_terminated',
};

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
    private readonly advisors: AdvisorThreads,
    private readonly workflows: WorkflowRuns,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * A primary's platform tools for delegating (threads never delegate: depth one): the delegation tool and
   * the Team Lead tools the agent enables when its `multiagent` declares callable or inline agents, and
   * `agent_spawn`/`task_output` when its workspace declares `subagents/<id>.md`, each child a thread, and
   * `consult_advisor` when its `multiagent_20261001` enables an advisor.
   */
  async toolsFor(
    session: SessionState,
    writer: TurnWriter,
    { workspace, advisorModel }: { workspace?: WorkspaceFs; advisorModel?: AdvisorModelFor } = {},
  ): Promise<HarnessTool[]> {
    const spec = session.spec as RunSpec;
    if (spec.thread) return [];
    const advisor = advisorModelOf(spec.agent.multiagent);
    const advising =
      advisor && advisorModel
        ? [
            advisorTool(advisor, {
              consult: (question, toolUseId, signal) =>
                this.advisors.consult(
                  session,
                  writer,
                  { model: advisor, question, toolUseId, signal },
                  advisorModel,
                ),
            }),
          ]
        : [];
    const declared = workspace ? await loadSubagentSpecs(workspace, { logger: this.warnings() }) : [];
    const subagents =
      declared.length === 0
        ? []
        : subagentThreadTools(
            spec.agent,
            declared,
            {
              spawn: (agent, shown, task, toolUseId) =>
                this.delegate(session, writer, agent, task, toolUseId, true, shown).then(({ threadId }) => ({
                  taskId: threadId,
                })),
              list: () => this.tasks.list(session.id),
              collect: async (toolUseId, taskId) =>
                (await this.tasks.collect(session.id, toolUseId, [taskId]))[0],
            },
            this.clock,
          );
    return [
      ...(await this.multiagentTools(session, writer)),
      ...(await this.workflowTools(session)),
      ...advising,
      ...subagents,
    ];
  }

  /** `workflow_run` when the agent's `multiagent_20261001` enables workflows (the default). */
  private async workflowTools(session: SessionState): Promise<HarnessTool[]> {
    const spec = session.spec as RunSpec;
    const workflows = workflowsOf(spec.agent.multiagent);
    if (!workflows.enabled) return [];
    const agents = await this.roster.forWorkflows(session.tenantId, spec.agent);
    return [
      workflowTool(
        agents.map((a) => a.name),
        workflows.inline,
        { start: (request, toolUseId) => this.workflows.start(session, toolUseId, request) },
      ),
    ];
  }

  private async multiagentTools(session: SessionState, writer: TurnWriter): Promise<HarnessTool[]> {
    const spec = session.spec as RunSpec;
    if (!spec.agent.multiagent) return [];
    const callable = await this.roster.callable(session.tenantId, spec.agent);
    const inline = inlineAgentsEnabled(spec.agent.multiagent);
    if (callable.length === 0 && !inline) return [];
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
      delegationTool(
        { primary: spec.agent, callable, inline },
        {
          send: (agent, message, toolUseId, shown) =>
            this.delegate(session, writer, agent, message, toolUseId, false, shown),
          inlineThread: (name) => this.store.inlineAgent(session.id, name),
        },
      ),
      ...(callable.length > 0 ? team : []),
    ];
  }

  private warnings(): { warn: (message: string, fields?: Record<string, unknown>) => void } {
    return { warn: (message, fields) => this.logger.warn(fields ?? {}, message) };
  }

  /**
   * A thread's run row writes its status events as the thread's own (`session.thread_status_*`, as CMA
   * types them), so its own stream and event list carry them; a session's are left as they are.
   */
  restyleStatuses(session: SessionState, writer: TurnWriter): void {
    const link = threadLinkOf(session.spec);
    if (!link) return;
    writer.restyleStatuses(({ type, ...rest }) => {
      const status = THREAD_STATUSES[type];
      if (!status) return { type, ...rest };
      const base = { ...rest, type: status, session_thread_id: session.id, agent_name: link.agentName };
      return status === 'session.thread_status_idle' ? { ...base, stop_details: null } : base;
    });
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
      if (link.workflowRunId) await this.workflows.threadFinished(session, link.workflowRunId);
      await this.crossPost(link, session.tenantId, await this.waitingOnClient(session.id, idle));
      return;
    }
    if (!received || stopReason.type !== 'end_turn' || !answer?.content) {
      await this.crossPost(link, session.tenantId, await this.waitingOnClient(session.id, idle));
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
    shown?: ShownInlineAgent,
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
      shown ?? agent,
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

  /**
   * The thread's idle status for the primary stream. A thread waiting on the client (a confirmation, a custom
   * tool's result) shows the calls it waits on there too, with `session_thread_id`, under ids of their own
   * that its status names; the answer sent to the session with either id reaches the thread (see
   * ThreadStore.threadCallOf).
   */
  private async waitingOnClient(threadId: string, idle: CrossPost): Promise<CrossPost[]> {
    const stopReason = idle.payload.stop_reason as StopReason;
    if (stopReason.type !== 'requires_action') return [idle];
    const calls = await this.store.eventsOf(threadId, stopReason.event_ids);
    const posted = calls.map((call) => ({
      id: crossPostedId(call.id),
      type: call.type,
      payload: { ...call.payload, session_thread_id: threadId },
      processed: true,
    }));
    const eventIds = posted.map((p) => p.id);
    return [
      ...posted,
      {
        ...idle,
        payload: { ...idle.payload, stop_reason: { type: 'requires_action', event_ids: eventIds } },
      },
    ];
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
