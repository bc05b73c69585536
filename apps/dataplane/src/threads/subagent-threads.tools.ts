import type { SessionAgent } from '@agentry/contracts';
import { inputText, type HarnessTool, type SubagentSpec, type ToolOutcome } from '@agentry/harness';
import type { Clock } from '@agentry/platform';
import type { ShownInlineAgent } from './inline-agents.js';
import type { ThreadTask } from './thread-tasks.repository.js';

/** The session's task threads, as `agent_spawn` and `task_output` see them. */
export interface SubagentThreadsPort {
  /** Starts a task thread of `agent` for the spawning call `toolUseId` (a re-run starts nothing new). */
  spawn(
    agent: SessionAgent,
    shown: ShownInlineAgent,
    task: string,
    toolUseId: string,
  ): Promise<{ taskId: string }>;
  list(): Promise<ThreadTask[]>;
  /** Takes the finished result of `taskId` for the call `toolUseId` (once; a re-run of that call gets it again). */
  collect(toolUseId: string, taskId: string): Promise<ThreadTask | undefined>;
}

const DEFAULT_WAIT_SECONDS = 30;
const MAX_WAIT_SECONDS = 600;
const POLL_MS = 500;

const ok = (text: string): ToolOutcome => ({ status: 'ok', content: [{ type: 'text', text }] });
const fail = (text: string): ToolOutcome => ({ status: 'error', content: [{ type: 'text', text }] });

/**
 * The agent a `subagents/<id>.md` declaration runs as: its prompt and, when it names one, its model (with
 * the settings a config form gives); the session's tools otherwise. It never spawns further (depth one).
 */
function subagentAgent(
  primary: SessionAgent,
  spec: SubagentSpec,
): { run: SessionAgent; shown: ShownInlineAgent } {
  const model = spec.model ? { ...(spec.modelSettings ?? {}), id: spec.model } : primary.model;
  const run: SessionAgent = {
    ...primary,
    name: spec.id,
    description: spec.description,
    system: spec.systemPrompt,
    model,
    multiagent: null,
  };
  const shown: ShownInlineAgent = {
    type: 'inline',
    name: spec.id,
    description: spec.description,
    system: spec.systemPrompt,
    model,
    tools: primary.tools,
    mcp_servers: primary.mcp_servers,
    skills: primary.skills,
    execution_identity: primary.execution_identity,
  };
  return { run, shown };
}

function seconds(value: unknown): number {
  const n = typeof value === 'number' && Number.isFinite(value) ? value : DEFAULT_WAIT_SECONDS;
  return Math.min(Math.max(0, n), MAX_WAIT_SECONDS);
}

function describe(task: ThreadTask): string {
  const head = `task_id: ${task.id}\nagent_id: ${task.agentName}\nstatus: ${task.status}`;
  if (task.status === 'running')
    return `${head}\nThe sub-agent is still running; use task_output to collect its answer.`;
  const text = (task.result ?? [])
    .flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : []))
    .join('\n');
  return `${head}\n\n${text}`;
}

/** Polls the task until it finished, the deadline passed or the call was interrupted. */
async function waitFor(
  port: SubagentThreadsPort,
  taskId: string,
  waitSeconds: number,
  signal: AbortSignal,
  clock: Clock,
): Promise<ThreadTask | undefined> {
  const deadline = clock.nowMs() + waitSeconds * 1_000;
  for (;;) {
    const task = (await port.list()).find((t) => t.id === taskId);
    if (!task || task.status !== 'running') return task;
    const left = deadline - clock.nowMs();
    if (left <= 0 || signal.aborted) return task;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.min(POLL_MS, left));
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    });
  }
}

/** A finished task's answer, collected for this call; a running one as it stands. */
async function answer(port: SubagentThreadsPort, toolUseId: string, task: ThreadTask): Promise<ToolOutcome> {
  if (task.status === 'running') return ok(describe(task));
  const collected = (await port.collect(toolUseId, task.id)) ?? task;
  return collected.status === 'failed' ? fail(describe(collected)) : ok(describe(collected));
}

/**
 * `agent_spawn` and `task_output` for the `subagents/<id>.md` an agent's workspace declares. Each spawn is
 * a session thread of its own (a row, an inbox, a lease), so the child outlives the turn and the replica
 * that started it; a re-run of the spawning call after a crash waits on the same thread.
 */
export function subagentThreadTools(
  primary: SessionAgent,
  specs: readonly SubagentSpec[],
  port: SubagentThreadsPort,
  clock: Clock,
): HarnessTool[] {
  const ids = specs.map((s) => s.id);
  const spawn: HarnessTool = {
    name: 'agent_spawn',
    description: [
      'Delegate a self-contained task to a sub-agent, which works in its own thread and context and returns its final answer.',
      'Sub-agents:',
      ...specs.map((s) => `- ${s.id}: ${s.description}`),
    ].join('\n'),
    inputSchema: {
      type: 'object',
      properties: {
        agent_id: { type: 'string', enum: ids, description: 'Which sub-agent to run.' },
        task: {
          type: 'string',
          description: 'The complete task: the sub-agent sees nothing else of this conversation.',
        },
        run_in_background: { type: 'boolean', description: 'Return a task_id at once instead of waiting.' },
        timeout_seconds: {
          type: 'number',
          description: `How long to wait for the answer (default ${DEFAULT_WAIT_SECONDS}, max ${MAX_WAIT_SECONDS}; 0 = background).`,
        },
      },
      required: ['agent_id', 'task'],
    },
    // The thread is keyed by the call: a re-run after a crash finds it instead of starting another.
    idempotent: true,
    toolset: 'platform',
    defaultPermission: 'always_allow',
    async execute(input, context) {
      const spec = specs.find((s) => s.id === input.agent_id);
      if (!spec)
        return fail(`Unknown sub-agent ${JSON.stringify(input.agent_id)}. Known: ${ids.join(', ')}.`);
      const task = typeof input.task === 'string' ? input.task.trim() : '';
      if (task === '') return fail('task must describe what the sub-agent should do.');
      const waitSeconds = seconds(input.timeout_seconds);
      const { run, shown } = subagentAgent(primary, spec);
      const { taskId } = await port.spawn(run, shown, task, context.toolCallId);
      if (input.run_in_background === true || waitSeconds === 0)
        return ok(`Started sub-agent "${spec.id}" in the background.\ntask_id: ${taskId}`);
      const found = await waitFor(port, taskId, waitSeconds, context.signal, clock);
      if (!found) return fail(`The task ${taskId} is gone.`);
      return answer(port, context.toolCallId, found);
    },
  };
  const output: HarnessTool = {
    name: 'task_output',
    description:
      "Get a sub-agent task's status and, once finished, its answer. With block: true, wait up to timeout seconds.",
    inputSchema: {
      type: 'object',
      properties: {
        task_id: { type: 'string' },
        block: { type: 'boolean', description: 'Wait for the task to finish (default false).' },
        timeout: {
          type: 'number',
          description: `Seconds to wait when blocking (default ${DEFAULT_WAIT_SECONDS}, max ${MAX_WAIT_SECONDS}).`,
        },
      },
      required: ['task_id'],
    },
    idempotent: true,
    toolset: 'platform',
    defaultPermission: 'always_allow',
    async execute(input, context) {
      const id = inputText(input.task_id);
      const known = (await port.list()).find((t) => t.id === id);
      if (!known) return fail(`Unknown task_id "${id}".`);
      const found =
        input.block === true ? await waitFor(port, id, seconds(input.timeout), context.signal, clock) : known;
      return answer(port, context.toolCallId, found ?? known);
    },
  };
  return [spawn, output];
}
