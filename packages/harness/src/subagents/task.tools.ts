import type { HarnessTool, ToolOutcome } from '../tools/tool.js';
import { describeTask } from './agent-spawn.tool.js';
import type { SubagentTaskRegistry, SubagentTaskStatus } from './subagent-task-registry.js';
import { inputText, objectSchema } from '../tools/tool-input.js';

const ok = (value: string): ToolOutcome => ({ status: 'ok', content: [{ type: 'text', text: value }] });
const fail = (value: string): ToolOutcome => ({
  status: 'error',
  content: [{ type: 'text', text: value }],
  reason: value,
});
const STATUSES: readonly SubagentTaskStatus[] = ['pending', 'running', 'completed', 'failed', 'cancelled'];

function seconds(value: unknown, fallback: number, max: number): number {
  const n = typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  return Math.min(Math.max(0, n), max);
}

/** task_output, task_list, task_cancel and wait_async_results over one task registry. */
export function createTaskTools(registry: SubagentTaskRegistry): HarnessTool[] {
  const taskOutput: HarnessTool = {
    name: 'task_output',
    description:
      "Get a sub-agent task's status and, once finished, its answer. With block: true, wait up to timeout seconds.",
    inputSchema: objectSchema(
      {
        task_id: { type: 'string' },
        block: { type: 'boolean', description: 'Wait for the task to finish (default false).' },
        timeout: { type: 'number', description: 'Seconds to wait when blocking (default 30, max 600).' },
      },
      ['task_id'],
    ),
    idempotent: true,
    toolset: 'builtin',
    async execute(input, context) {
      const id = inputText(input.task_id);
      if (!registry.get(id)) return fail(`Unknown task_id "${id}".`);
      if (input.block === true)
        await registry.wait([id], {
          timeoutMs: seconds(input.timeout, 30, 600) * 1_000,
          signal: context.signal,
        });
      return ok(describeTask(registry.get(id) as NonNullable<ReturnType<typeof registry.get>>));
    },
  };

  const taskList: HarnessTool = {
    name: 'task_list',
    description: 'List sub-agent tasks of this run, optionally only those with one status.',
    inputSchema: {
      type: 'object',
      properties: { status_filter: { type: 'string', enum: [...STATUSES] } },
      additionalProperties: false,
    },
    idempotent: true,
    toolset: 'builtin',
    execute(input) {
      const filter = STATUSES.find((status) => status === inputText(input.status_filter).toLowerCase());
      const records = registry.list(filter);
      if (records.length === 0) return Promise.resolve(ok('No tasks.'));
      return Promise.resolve(
        ok(
          records.map((r) => `${r.id}\t${r.status}\t${r.agentId}${r.label ? `\t${r.label}` : ''}`).join('\n'),
        ),
      );
    },
  };

  const taskCancel: HarnessTool = {
    name: 'task_cancel',
    description: 'Cancel a running sub-agent task.',
    inputSchema: {
      type: 'object',
      properties: { task_id: { type: 'string' } },
      required: ['task_id'],
      additionalProperties: false,
    },
    idempotent: false,
    toolset: 'builtin',
    execute(input) {
      const id = inputText(input.task_id);
      const before = registry.get(id)?.status;
      const record = registry.cancel(id);
      if (!record) return Promise.resolve(fail(`Unknown task_id "${id}".`));
      return Promise.resolve(
        ok(
          before === 'running' || before === 'pending'
            ? `Cancelled ${id}.`
            : `Task ${id} had already finished (${record.status}).`,
        ),
      );
    },
  };

  const waitAsync: HarnessTool = {
    name: 'wait_async_results',
    description:
      'Wait for background sub-agent tasks and return their results. Without task_ids, waits on every running task.',
    inputSchema: {
      type: 'object',
      properties: {
        timeout_seconds: { type: 'number', description: 'Default 60, max 120.' },
        task_ids: { type: 'string', description: 'Comma-separated task ids.' },
        wait_all: {
          type: 'boolean',
          description: 'Wait for all of them (default true) or return when the first finishes.',
        },
      },
      additionalProperties: false,
    },
    idempotent: true,
    toolset: 'builtin',
    async execute(input, context) {
      const ids =
        typeof input.task_ids === 'string' && input.task_ids.trim() !== ''
          ? input.task_ids
              .split(',')
              .map((id) => id.trim())
              .filter(Boolean)
          : registry.list('running').map((r) => r.id);
      if (ids.length === 0) return ok('No running tasks to wait for.');
      const unknown = ids.filter((id) => !registry.get(id));
      if (unknown.length > 0) return fail(`Unknown task_id(s): ${unknown.join(', ')}.`);
      const records = await registry.wait(ids, {
        all: input.wait_all !== false,
        timeoutMs: seconds(input.timeout_seconds, 60, 120) * 1_000,
        signal: context.signal,
      });
      return ok(records.map(describeTask).join('\n\n---\n\n'));
    },
  };

  return [taskOutput, taskList, taskCancel, waitAsync];
}
