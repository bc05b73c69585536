import type { WorkspaceFs } from '@agentry/workspace';
import type { SubagentSpec } from './subagent-spec.js';

interface ChildRunContext {
  taskId: string;
  /** The thread id events of this child carry (equals the task id). */
  threadId: string;
  /** The agent_spawn call that started the child. */
  parentToolUseId: string;
  /** The workspace the child gets: a sub-root for isolated children, the parent's for shared ones. */
  fs: WorkspaceFs;
  /** The parent's tool context values (tenant, user...), for building the child. */
  values: Record<string, unknown>;
}

/**
 * Runs one child agent: yields its events and returns its final answer text. Injected by whoever
 * builds the harness (it builds the child harness from the spec: model, tools allowlist, maxIters).
 * Must stop promptly when `signal` aborts.
 */
export type ChildRunner<E = unknown> = (
  spec: SubagentSpec,
  task: string,
  signal: AbortSignal,
  context: ChildRunContext,
) => AsyncGenerator<E, string | undefined, undefined>;

/** A child event tagged so the platform can show it in the child's thread. */
export interface ChildThreadEvent<E = unknown> {
  thread_id: string;
  parent_tool_use_id: string;
  task_id: string;
  agent_id: string;
  event: E;
}

/**
 * Adapts a plain event stream (e.g. a child harness's `run`) to a ChildRunner result: re-yields every
 * event and returns the last text `finalTextOf` finds (the child's final answer).
 */
export async function* withFinalText<E>(
  events: AsyncIterable<E>,
  finalTextOf: (event: E) => string | undefined,
): AsyncGenerator<E, string, undefined> {
  let final = '';
  for await (const event of events) {
    const text = finalTextOf(event);
    if (text !== undefined) final = text;
    yield event;
  }
  return final;
}
