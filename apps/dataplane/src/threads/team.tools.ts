import type { SessionAgent, TeamToolName } from '@agentry/contracts';
import type { HarnessTool, ToolOutcome } from '@agentry/harness';
import type { Clock } from '@agentry/platform';
import type { ThreadTask } from './thread-tasks.repository.js';

/** The session's background tasks, as the Team Lead tools see them (one session, persisted). */
export interface TeamTasksPort {
  /** Starts a child run of `agent` on `task` for the spawning call `toolUseId` (a re-run starts nothing new). */
  spawn(agent: SessionAgent, task: string, toolUseId: string): Promise<{ taskId: string }>;
  list(): Promise<ThreadTask[]>;
  /** Takes the finished, uncollected results (of `ids` only, when given) for the call `toolUseId`. */
  collect(toolUseId: string, ids?: readonly string[]): Promise<ThreadTask[]>;
}

const WAIT_DEFAULT_SECONDS = 60;
const WAIT_MAX_SECONDS = 120;

const ok = (text: string): ToolOutcome => ({ status: 'ok', content: [{ type: 'text', text }] });
const fail = (text: string): ToolOutcome => ({ status: 'error', content: [{ type: 'text', text }] });

function resultText(task: ThreadTask): string {
  const texts = (task.result ?? []).flatMap((block) =>
    block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
  );
  return texts.join('\n') || '(no text)';
}

function describeResult(task: ThreadTask): string {
  return `[${task.id}] ${task.agentName} — ${task.status}\n${resultText(task)}`;
}

/** Results, then what is still running or was collected by an earlier call. */
function report(collected: ThreadTask[], watched: ThreadTask[]): string {
  const taken = new Set(collected.map((t) => t.id));
  const running = watched.filter((t) => !taken.has(t.id) && t.status === 'running');
  const elsewhere = watched.filter((t) => !taken.has(t.id) && t.status !== 'running');
  const parts =
    collected.length > 0 ? [collected.map(describeResult).join('\n\n---\n\n')] : ['No results yet.'];
  if (running.length > 0)
    parts.push(`Still running: ${running.map((t) => `${t.id} (${t.agentName})`).join(', ')}.`);
  if (elsewhere.length > 0)
    parts.push(`Already collected earlier: ${elsewhere.map((t) => t.id).join(', ')}.`);
  return parts.join('\n\n');
}

function taskIdsOf(value: unknown): string[] | undefined | Error {
  if (value === undefined || value === null || value === '') return undefined;
  const list = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : null;
  if (!list || list.some((id) => typeof id !== 'string'))
    return new Error('task_ids must be a comma-separated string of task ids.');
  const ids = (list as string[]).map((id) => id.trim()).filter(Boolean);
  return ids.length > 0 ? ids : undefined;
}

function waitSeconds(value: unknown): number | Error {
  if (value === undefined || value === null) return WAIT_DEFAULT_SECONDS;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    return new Error('timeout_seconds must be a number of seconds, 0 or more.');
  return Math.min(value, WAIT_MAX_SECONDS);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

const platformTool = { toolset: 'platform', defaultPermission: 'always_allow' } as const;

function spawnTool(callable: SessionAgent[], port: TeamTasksPort): HarnessTool {
  const names = callable.map((a) => a.name);
  return {
    ...platformTool,
    name: 'sessions_spawn',
    description:
      `Start a child session of one of your team members (${names.join(', ')}) on a task, in the background. ` +
      'Returns its task id at once; collect the result later with sessions_pending_completions or wait_async_results.',
    inputSchema: {
      type: 'object',
      properties: {
        agent: { type: 'string', enum: names, description: 'Name (or id) of the team member to run.' },
        task: { type: 'string', description: 'What the member should do, with everything it needs to know.' },
      },
      required: ['agent', 'task'],
    },
    idempotent: true,
    async execute(input, context) {
      const agent = callable.find((a) => a.name === input.agent || a.id === input.agent);
      if (!agent)
        return fail(
          `No team member named ${JSON.stringify(input.agent)}; the members are: ${names.join(', ')}.`,
        );
      if (typeof input.task !== 'string' || input.task.trim() === '')
        return fail('task must be a non-empty string.');
      const { taskId } = await port.spawn(agent, input.task, context.toolCallId);
      return ok(`Started ${agent.name} in the background. task_id: ${taskId}`);
    },
  };
}

function listTool(port: TeamTasksPort): HarnessTool {
  return {
    ...platformTool,
    name: 'sessions_list',
    description:
      'List the child sessions started with sessions_spawn: task id, status, member, whether the result was collected, task.',
    inputSchema: { type: 'object', properties: {} },
    idempotent: true,
    async execute() {
      const tasks = await port.list();
      if (tasks.length === 0) return ok('No child sessions.');
      return ok(
        tasks
          .map((t) =>
            [t.id, t.status, t.agentName, t.consumedBy ? 'collected' : 'not collected', t.task].join('\t'),
          )
          .join('\n'),
      );
    },
  };
}

function pendingTool(port: TeamTasksPort): HarnessTool {
  return {
    ...platformTool,
    name: 'sessions_pending_completions',
    description:
      'Return the results of finished child sessions not collected yet. Each result is returned once.',
    inputSchema: { type: 'object', properties: {} },
    idempotent: true,
    async execute(_input, context) {
      const collected = await port.collect(context.toolCallId);
      const running = (await port.list()).filter((t) => t.status === 'running');
      if (collected.length === 0)
        return ok(
          `No finished child sessions waiting.${running.length ? ` ${running.length} still running.` : ''}`,
        );
      return ok(report(collected, running));
    },
  };
}

function waitTool(port: TeamTasksPort, clock: Clock, pollMs: number): HarnessTool {
  return {
    ...platformTool,
    name: 'wait_async_results',
    description:
      'Wait for background child sessions and return their results (each once). Without task_ids, waits on every one not collected yet.',
    inputSchema: {
      type: 'object',
      properties: {
        timeout_seconds: {
          type: 'number',
          description: `Default ${WAIT_DEFAULT_SECONDS}, max ${WAIT_MAX_SECONDS}.`,
        },
        task_ids: { type: 'string', description: 'Comma-separated task ids.' },
        wait_all: {
          type: 'boolean',
          description: 'Wait for all of them (default true) or return when the first finishes.',
        },
      },
    },
    idempotent: true,
    async execute(input, context) {
      const ids = taskIdsOf(input.task_ids);
      const seconds = waitSeconds(input.timeout_seconds);
      if (ids instanceof Error) return fail(ids.message);
      if (seconds instanceof Error) return fail(seconds.message);
      if (input.wait_all !== undefined && typeof input.wait_all !== 'boolean')
        return fail('wait_all must be true or false.');
      const waitAll = input.wait_all !== false;
      const deadline = clock.nowMs() + seconds * 1_000;
      let watched: ThreadTask[];
      for (;;) {
        const tasks = await port.list();
        if (ids) {
          const unknown = ids.filter((id) => !tasks.some((t) => t.id === id));
          if (unknown.length > 0) return fail(`Unknown task_id(s): ${unknown.join(', ')}.`);
          watched = tasks.filter((t) => ids.includes(t.id));
        } else watched = tasks.filter((t) => t.consumedBy === null || t.consumedBy === context.toolCallId);
        if (watched.length === 0) return ok('No background tasks to wait for.');
        const finished = watched.filter((t) => t.status !== 'running').length;
        const left = deadline - clock.nowMs();
        if ((waitAll ? finished === watched.length : finished > 0) || left <= 0 || context.signal.aborted)
          break;
        await sleep(Math.min(pollMs, left), context.signal);
      }
      const collected = await port.collect(
        context.toolCallId,
        watched.map((t) => t.id),
      );
      return ok(report(collected, watched));
    },
  };
}

/**
 * The Team Lead tools an agent enables. Child runs are session threads that persist, so they outlive
 * the turn that spawned them and their results wait for a later turn, across restarts.
 */
export function createTeamTools(
  enabled: readonly TeamToolName[],
  callable: SessionAgent[],
  port: TeamTasksPort,
  options: { clock: Clock; pollMs?: number },
): HarnessTool[] {
  const all: Record<TeamToolName, () => HarnessTool> = {
    sessions_spawn: () => spawnTool(callable, port),
    sessions_list: () => listTool(port),
    sessions_pending_completions: () => pendingTool(port),
    wait_async_results: () => waitTool(port, options.clock, options.pollMs ?? 500),
  };
  return enabled.map((name) => all[name]());
}
