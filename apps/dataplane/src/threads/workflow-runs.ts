import { Injectable } from '@nestjs/common';
import { ID_PREFIXES, newId, type SessionAgent } from '@agentry/contracts';
import { EventPublisher } from '../event-log/event-publisher.js';
import { toStoredEvent } from '../event-log/event-row.mapper.js';
import { SessionWakeups } from '../drain/session-wakeups.js';
import type { SessionState } from '../sessions/session-state.repository.js';
import { SqlPool } from '../sql/sql-pool.js';
import { defineInlineAgent, workflowsOf } from './inline-agents.js';
import { ThreadRoster } from './thread-roster.js';
import type { RunSpec, ThreadLink } from './thread-spec.js';
import { derivedId, ThreadStore } from './thread-store.repository.js';
import { parsePlan, PlanError, type WorkflowPlan } from './workflow-plan.js';

type RunResult =
  | { type: 'completed' }
  | { type: 'error'; error: { type: 'program_error' | 'thread_limit_error'; message: string } };

interface RunRow {
  id: string;
  tenantId: string;
  sessionId: string;
  toolUseId: string;
  name: string;
  plan: WorkflowPlan;
  phase: number;
  endedAt: Date | null;
}

const RUN_COLUMNS = `id, tenant_id AS "tenantId", session_id AS "sessionId", tool_use_id AS "toolUseId", name, plan, phase,
  ended_at AS "endedAt"`;

/**
 * Workflow runs (CMA `workflows`): the primary writes a plan of phases, each phase's threads start at once,
 * and the run moves to the next phase when the last of them finishes. Everything is a row or an event with
 * an id fixed by what caused it, so the thread ending that moves a run on can be replayed after a crash.
 * The run's end reaches the primary as a `system.message` with each thread's answer.
 */
@Injectable()
export class WorkflowRuns {
  constructor(
    private readonly sql: SqlPool,
    private readonly store: ThreadStore,
    private readonly roster: ThreadRoster,
    private readonly publisher: EventPublisher,
    private readonly wakeups: SessionWakeups,
  ) {}

  /** Starts the run the call `toolUseId` asked for (a re-run of the call finds it): its id. */
  async start(
    session: SessionState,
    toolUseId: string,
    request: { name: string; description: string | null; plan: unknown },
  ): Promise<string> {
    let plan: WorkflowPlan | undefined;
    let refused: PlanError | undefined;
    try {
      plan = parsePlan(request.plan);
    } catch (error) {
      if (!(error instanceof PlanError)) throw error;
      refused = error;
    }
    const rows = await this.sql.query<{ id: string }>(
      'workflow-runs.create',
      `INSERT INTO workflow_runs (id, tenant_id, session_id, tool_use_id, name, description, plan)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (session_id, tool_use_id) DO NOTHING RETURNING id`,
      [
        newId(ID_PREFIXES.workflowRun),
        session.tenantId,
        session.id,
        toolUseId,
        request.name,
        request.description,
        JSON.stringify(plan ?? { phases: [] }),
      ],
    );
    const run = await this.find(session.id, toolUseId);
    if (rows.rowCount === 0) return run.id;
    await this.post(run, [
      {
        purpose: 'created',
        type: 'workflow_run.created',
        payload: {
          name: request.name,
          description: request.description,
          phases: run.plan.phases.map((p, k) => ({
            id: phaseId(run.id, k),
            name: p.name,
            description: p.description,
          })),
        },
      },
    ]);
    if (refused)
      await this.end(run, { type: 'error', error: { type: refused.type, message: refused.message } });
    else {
      await this.post(run, [{ purpose: 'running', type: 'workflow_run.status_running', payload: {} }]);
      await this.startPhase(session, run, 0);
    }
    return run.id;
  }

  /** A thread of the run finished: when it was the last of its phase, the run moves on (once). */
  async threadFinished(session: SessionState, runId: string): Promise<void> {
    const run = await this.byId(runId);
    if (!run || run.endedAt) return;
    const pending = await this.sql.query<{ n: number }>(
      'workflow-runs.pending',
      `SELECT count(*)::int AS n FROM session_threads
       WHERE workflow_run_id = $1 AND task_tool_use_id LIKE $2 AND finished_at IS NULL`,
      [run.id, `${run.toolUseId}:${run.phase}:%`],
    );
    if ((pending.rows[0]?.n ?? 0) > 0) return;
    const moved = await this.sql.query(
      'workflow-runs.advance',
      'UPDATE workflow_runs SET phase = phase + 1 WHERE id = $1 AND phase = $2 AND ended_at IS NULL',
      [run.id, run.phase],
    );
    if (moved.rowCount === 0) return;
    await this.post(run, [phaseEvent(run.id, run.phase, 'ended')]);
    const next = run.phase + 1;
    if (next < run.plan.phases.length) await this.startPhase(session, { ...run, phase: next }, next);
    else await this.end({ ...run, phase: next }, { type: 'completed' });
  }

  private async startPhase(session: SessionState, run: RunRow, k: number): Promise<void> {
    const spec = session.spec as RunSpec;
    const primary = await this.parentOf(session, spec);
    await this.post(run, [phaseEvent(run.id, k, 'started')]);
    const steps = run.plan.phases[k]!.threads;
    const agents = await this.agentsOf(session.tenantId, primary.agent, steps);
    if (agents instanceof Error) {
      await this.post(run, [phaseEvent(run.id, k, 'ended')]);
      await this.end(run, { type: 'error', error: { type: 'program_error', message: agents.message } });
      return;
    }
    const primaryThreadId = await this.store.ensurePrimary(run.sessionId, run.tenantId, primary.agent);
    for (const [j, step] of steps.entries()) {
      const { run: agent, shown } = agents[j]!;
      const link: ThreadLink = {
        sessionId: run.sessionId,
        primaryThreadId,
        agentName: agent.name,
        task: true,
        workflowRunId: run.id,
      };
      const thread = await this.store.findOrCreate(
        { sessionId: run.sessionId, primaryThreadId },
        agent,
        { agent, environment: primary.environment, thread: link },
        { toolUseId: `${run.toolUseId}:${k}:${j}`, input: step.message },
        shown,
      );
      await this.sql.query(
        'workflow-runs.thread',
        'UPDATE session_threads SET workflow_run_id = $2 WHERE id = $1',
        [thread.id, run.id],
      );
      await this.appendTo(run.sessionId, run.tenantId, [
        {
          id: derivedId(thread.id, 'workflow-created'),
          type: 'session.thread_created',
          payload: { session_thread_id: thread.id, agent_name: agent.name, workflow_run_id: run.id },
          processed: true,
        },
      ]);
      await this.appendTo(thread.id, run.tenantId, [
        {
          id: derivedId(thread.id, 'workflow-message'),
          type: 'agent.thread_message_received',
          payload: {
            content: [{ type: 'text', text: step.message }],
            from_session_thread_id: primaryThreadId,
            from_agent_name: null,
          },
          processed: false,
        },
      ]);
      await this.wakeups.kick(thread.id, run.tenantId);
    }
  }

  /** The agent of each step: a predefined agent of the workflows' roster, or an inline one the step defines. */
  private async agentsOf(
    tenantId: string,
    primary: SessionAgent,
    steps: WorkflowPlan['phases'][number]['threads'],
  ): Promise<Array<{ run: SessionAgent; shown: object }> | Error> {
    const roster = await this.roster.forWorkflows(tenantId, primary);
    const { inline } = workflowsOf(primary.multiagent);
    const agents: Array<{ run: SessionAgent; shown: object }> = [];
    for (const step of steps) {
      const predefined = roster.find((a) => a.name === step.agent || a.id === step.agent);
      if (predefined && step.inline_agent === undefined) {
        agents.push({ run: predefined, shown: predefined });
        continue;
      }
      if (!inline || step.inline_agent === undefined)
        return new Error(`The plan names an agent the run may not use: ${JSON.stringify(step.agent)}.`);
      const defined = defineInlineAgent(primary, step.agent, step.inline_agent);
      if (defined instanceof Error) return defined;
      agents.push(defined);
    }
    return agents;
  }

  /** Ends the run once: its error, its end, and a message to the primary with what its threads answered. */
  private async end(run: RunRow, result: RunResult): Promise<void> {
    const ended = await this.sql.query(
      'workflow-runs.end',
      'UPDATE workflow_runs SET result = $2, ended_at = now() WHERE id = $1 AND ended_at IS NULL',
      [run.id, JSON.stringify(result)],
    );
    if (ended.rowCount === 0) return;
    await this.post(run, [
      ...(result.type === 'error'
        ? [{ purpose: 'error', type: 'workflow_run.error', payload: { error: result.error } }]
        : []),
      { purpose: 'ended', type: 'workflow_run.status_ended', payload: { result } },
    ]);
    const answers = await this.sql.query<{
      agentName: string;
      result: Array<{ type?: string; text?: string }> | null;
    }>(
      'workflow-runs.answers',
      `SELECT agent_name AS "agentName", result FROM session_threads WHERE workflow_run_id = $1 ORDER BY created_at, id`,
      [run.id],
    );
    const head =
      result.type === 'completed'
        ? `Workflow run ${run.name} (${run.id}) completed.`
        : `Workflow run ${run.name} (${run.id}) ended with ${result.error.type}: ${result.error.message}`;
    const lines = answers.rows.map(
      (r) =>
        `[${r.agentName}] ${(r.result ?? []).flatMap((b) => (b.type === 'text' && b.text ? [b.text] : [])).join('\n')}`,
    );
    await this.appendTo(run.sessionId, run.tenantId, [
      {
        id: derivedId(run.id, 'workflow-report'),
        type: 'system.message',
        payload: { content: [{ type: 'text', text: [head, ...lines].join('\n') }] },
        processed: false,
      },
    ]);
    await this.wakeups.kick(run.sessionId, run.tenantId);
  }

  /** The primary session's spec, for a thread's session state as for the primary's own. */
  private async parentOf(session: SessionState, spec: RunSpec): Promise<RunSpec> {
    if (!spec.thread) return spec;
    const rows = await this.sql.query<{ spec: RunSpec }>(
      'workflow-runs.parent',
      'SELECT spec FROM sessions WHERE id = $1',
      [spec.thread.sessionId],
    );
    return rows.rows[0]?.spec ?? spec;
  }

  private async post(
    run: RunRow,
    events: Array<{ purpose: string; type: string; payload: Record<string, unknown> }>,
  ): Promise<void> {
    await this.appendTo(
      run.sessionId,
      run.tenantId,
      events.map((e) => ({
        id: derivedId(run.id, e.purpose),
        type: e.type,
        payload: { ...e.payload, workflow_run_id: run.id },
        processed: true,
      })),
    );
  }

  private async appendTo(
    log: string,
    tenantId: string,
    events: Parameters<ThreadStore['appendOnce']>[2],
  ): Promise<void> {
    const rows = await this.store.appendOnce(log, tenantId, events);
    this.publisher.published(log, rows.map(toStoredEvent));
  }

  private async find(sessionId: string, toolUseId: string): Promise<RunRow> {
    const rows = await this.sql.query<RunRow>(
      'workflow-runs.find',
      `SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE session_id = $1 AND tool_use_id = $2`,
      [sessionId, toolUseId],
    );
    return rows.rows[0]!;
  }

  private async byId(id: string): Promise<RunRow | undefined> {
    const rows = await this.sql.query<RunRow>(
      'workflow-runs.by-id',
      `SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE id = $1`,
      [id],
    );
    return rows.rows[0];
  }
}

function phaseId(runId: string, k: number): string {
  return `${runId}_phase_${k + 1}`;
}

function phaseEvent(runId: string, k: number, what: 'started' | 'ended') {
  const started = `phase-${k}-started`;
  return {
    purpose: `phase-${k}-${what}`,
    type: `workflow_run.phase_${what}`,
    payload: {
      workflow_run_phase_id: phaseId(runId, k),
      ...(what === 'ended' ? { phase_started_id: derivedId(runId, started) } : {}),
    },
  };
}
