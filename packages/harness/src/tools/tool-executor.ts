import { AppError } from '@agentry/contracts';
import type { HarnessTool, ToolContext, ToolOutcome } from './tool.js';
import { describeInputIssues, toolInputIssues } from './tool-input.js';

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
  /**
   * Told of an allowed call while its `tool_use` is being recorded, before `execute`: what the call will need
   * (where it runs) may be looked up meanwhile. A head start only; `execute` must not depend on it.
   */
  expect?(call: ExpectedCall): void;
}

/** A call `execute` will be handed next (see ToolExecutor.expect). */
export interface ExpectedCall {
  toolName: string;
  toolCallId: string;
}

/**
 * Runs HarnessTool.execute in this process; arguments its schema refuses and thrown errors become error
 * outcomes. (The harness checks arguments before choosing an executor too; this covers a call that reaches
 * a worker by another way.)
 */
export const inProcessToolExecutor: ToolExecutor = {
  async execute({ tool, input, context }) {
    const refused = invalidInputOutcome(tool, input);
    if (refused) return refused;
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

/** The error a model gets for arguments the tool's schema refuses, naming each wrong field; else undefined. */
export function invalidInputOutcome(tool: HarnessTool, input: unknown): FinishedOutcome | undefined {
  const issues = toolInputIssues(tool, input);
  if (issues.length === 0) return undefined;
  return errorOutcome(describeInputIssues(tool.name, issues), 'invalid_input');
}
