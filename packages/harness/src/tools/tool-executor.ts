import { AppError } from '@agentry/contracts';
import type { HarnessTool, ToolContext, ToolOutcome } from './tool.js';

/** One tool call handed to an executor. */
export interface ToolInvocation {
  tool: HarnessTool;
  input: Record<string, unknown>;
  context: ToolContext;
}

/**
 * Decides where a tool runs: in process, on a worker, or suspended for a self-hosted worker
 * (return `{status:'pending'}`; the result arrives in a later run via `input.toolResults`).
 */
export interface ToolExecutor {
  execute(invocation: ToolInvocation): Promise<ToolOutcome>;
}

/** Runs HarnessTool.execute in this process; thrown errors become error outcomes. */
export const inProcessToolExecutor: ToolExecutor = {
  async execute({ tool, input, context }) {
    try {
      return await tool.execute(input, context);
    } catch (err) {
      if (context.signal.aborted) return errorOutcome('The tool was interrupted', 'interrupted');
      const message = err instanceof Error ? err.message : String(err);
      const reason = AppError.is(err) ? err.code.toLowerCase() : 'tool_failed';
      return errorOutcome(message, reason);
    }
  },
};

/** An outcome that carries content (not `pending`). */
export type FinishedOutcome = Exclude<ToolOutcome, { status: 'pending' }>;

export function errorOutcome(text: string, reason: string): FinishedOutcome {
  return { status: 'error', content: [{ type: 'text', text }], reason };
}

export function textOutcome(text: string): FinishedOutcome {
  return { status: 'ok', content: [{ type: 'text', text }] };
}
