import type { HarnessTool, ToolOutcome } from '../tools/tool.js';
import { SubRootFs } from './sub-root-fs.js';
import type { SubagentRegistry } from './subagent-registry.js';
import type { ChildRunner, ChildThreadEvent } from './subagent-runner.js';
import type { SubagentTaskRecord, SubagentTaskRegistry } from './subagent-task-registry.js';

const SUBAGENT_WORKSPACE_DIR = 'subagents_ws';

const text = (status: 'ok' | 'error', value: string): ToolOutcome =>
  status === 'ok'
    ? { status, content: [{ type: 'text', text: value }] }
    : { status, content: [{ type: 'text', text: value }], reason: value };

export interface SubagentToolDeps<E = unknown> {
  /** Tasks of this parent run; owned by the caller. */
  registry: SubagentTaskRegistry;
  /** The sub-agents that can be spawned. */
  agents: SubagentRegistry;
  runChild: ChildRunner<E>;
  onChildEvent?: (event: ChildThreadEvent<E>) => void;
}

/** The tool's answer for a task in any state (shared with task_output). */
export function describeTask(record: SubagentTaskRecord): string {
  const head = `task_id: ${record.id}\nagent_id: ${record.agentId}${record.label ? `\nlabel: ${record.label}` : ''}\nstatus: ${record.status}`;
  if (record.status === 'completed') return `${head}\n\n${record.result ?? ''}`;
  if (record.status === 'failed' || record.status === 'cancelled')
    return `${head}\nerror: ${record.error ?? ''}`;
  return `${head}\nThe sub-agent is still running; use task_output or wait_async_results to collect its answer.`;
}

function clampSeconds(value: unknown, fallback: number, max: number): number {
  const n = typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  return Math.min(Math.max(0, n), max);
}

/**
 * `agent_spawn`: runs a declared sub-agent on a task. Synchronous by default (waits up to
 * timeout_seconds for the final answer; past that the child keeps running and the task id is
 * returned); `run_in_background: true` or `timeout_seconds: 0` returns the task id at once.
 */
export function createAgentSpawnTool<E>(deps: SubagentToolDeps<E>): HarnessTool {
  return {
    name: 'agent_spawn',
    get description(): string {
      const list = deps.agents.list().map((spec) => `- ${spec.id}: ${spec.description}`);
      return [
        'Delegate a self-contained task to a sub-agent, which works in its own context and returns its final answer.',
        'Sub-agents:',
        ...(list.length ? list : ['(none declared)']),
      ].join('\n');
    },
    get inputSchema(): Record<string, unknown> {
      const ids = deps.agents.list().map((spec) => spec.id);
      return {
        type: 'object',
        properties: {
          agent_id: {
            type: 'string',
            description: 'Which sub-agent to run.',
            ...(ids.length ? { enum: ids } : {}),
          },
          task: {
            type: 'string',
            description: 'The complete task: the sub-agent sees nothing else of this conversation.',
          },
          label: { type: 'string', description: 'Short label shown in task lists.' },
          run_in_background: { type: 'boolean', description: 'Return a task_id at once instead of waiting.' },
          timeout_seconds: {
            type: 'number',
            description: 'How long to wait for the answer (default 30, max 600; 0 = background).',
          },
        },
        required: ['agent_id', 'task'],
        additionalProperties: false,
      };
    },
    idempotent: false,
    toolset: 'builtin',
    async execute(input, context) {
      const agentId = typeof input.agent_id === 'string' ? input.agent_id : '';
      const spec = deps.agents.get(agentId);
      if (!spec)
        return text(
          'error',
          `Unknown sub-agent "${agentId}". Known: ${
            deps.agents
              .list()
              .map((s) => s.id)
              .join(', ') || '(none)'
          }.`,
        );
      const task = typeof input.task === 'string' ? input.task.trim() : '';
      if (task === '') return text('error', 'task must describe what the sub-agent should do.');
      const timeoutSeconds = clampSeconds(input.timeout_seconds, 30, 600);
      const background = input.run_in_background === true || timeoutSeconds === 0;
      const label =
        typeof input.label === 'string' && input.label.trim() !== '' ? input.label.trim() : undefined;

      const record = deps.registry.start(
        { agentId, task, background, parentToolUseId: context.toolCallId, ...(label ? { label } : {}) },
        async (signal, taskId) => {
          const fs =
            spec.workspaceMode === 'isolated'
              ? new SubRootFs(context.fs, `${SUBAGENT_WORKSPACE_DIR}/${taskId}`)
              : context.fs;
          const run = deps.runChild(spec, task, signal, {
            taskId,
            threadId: taskId,
            parentToolUseId: context.toolCallId,
            fs,
            values: context.values,
          });
          for (;;) {
            const step = await run.next();
            if (step.done) return step.value ?? '';
            signal.throwIfAborted();
            deps.onChildEvent?.({
              thread_id: taskId,
              parent_tool_use_id: context.toolCallId,
              task_id: taskId,
              agent_id: agentId,
              event: step.value,
            });
          }
        },
      );
      if (background) {
        return text('ok', `Started sub-agent "${agentId}" in the background.\n${describeTask(record)}`);
      }
      // A synchronous child belongs to this tool call: interrupting the call cancels it.
      const onAbort = () => deps.registry.cancel(record.id, 'cancelled because the parent was interrupted');
      context.signal.addEventListener('abort', onAbort, { once: true });
      try {
        await deps.registry.wait([record.id], { timeoutMs: timeoutSeconds * 1_000, signal: context.signal });
      } finally {
        context.signal.removeEventListener('abort', onAbort);
      }
      return text(
        record.status === 'failed' || record.status === 'cancelled' ? 'error' : 'ok',
        describeTask(record),
      );
    },
  };
}
