import type { HarnessTool, ToolOutcome } from '@agentry/harness';
import type { SessionAgent } from '@agentry/contracts';

const ADVISOR_TOOL_NAME = 'consult_advisor';

/** Where a question to the advisor goes: its thread, which answers once per call (a re-run reads the answer). */
export interface AdvisorPort {
  consult(question: string, toolUseId: string, signal: AbortSignal): Promise<string>;
}

/** The advisor model a `multiagent_20261001` agent enables, if any. */
export function advisorModelOf(multiagent: SessionAgent['multiagent']): string | undefined {
  const config = multiagent as { type: string; advisor?: { type: string; model?: string } | null } | null;
  if (config?.type !== 'multiagent_20261001' || config.advisor?.type !== 'enabled') return undefined;
  return config.advisor.model;
}

/**
 * The primary's way to consult its advisor mid-turn (CMA `advisor`): a second model that answers a
 * question and does no work of its own. The call waits for the answer.
 */
export function advisorTool(model: string, port: AdvisorPort): HarnessTool {
  return {
    name: ADVISOR_TOOL_NAME,
    description:
      `Ask your advisor (${model}), a second model, for advice on a decision or a hard step. ` +
      'It sees only the question: include the context it needs. Its answer comes back as the result.',
    inputSchema: {
      type: 'object',
      properties: { question: { type: 'string', description: 'The question, with its context.' } },
      required: ['question'],
    },
    idempotent: true,
    toolset: 'platform',
    defaultPermission: 'always_allow',
    async execute(input, context): Promise<ToolOutcome> {
      if (typeof input.question !== 'string' || input.question.trim() === '')
        return { status: 'error', content: [{ type: 'text', text: 'question must be a non-empty string.' }] };
      const answer = await port.consult(input.question, context.toolCallId, context.signal);
      return { status: 'ok', content: [{ type: 'text', text: answer }] };
    },
  };
}
