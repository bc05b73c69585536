import type { HarnessTool, ToolOutcome } from '@agentry/harness';

const WORKFLOW_TOOL_NAME = 'workflow_run';

export interface WorkflowStarter {
  start(
    request: { name: string; description: string | null; plan: unknown },
    toolUseId: string,
  ): Promise<string>;
}

const fail = (text: string): ToolOutcome => ({ status: 'error', content: [{ type: 'text', text }] });

/**
 * Starts a workflow run in the background: a plan of phases that run in order, each starting its threads at
 * once. The call returns at once; the run's end arrives later as a system message with every thread's answer.
 */
export function workflowTool(agents: string[], inline: boolean, starter: WorkflowStarter): HarnessTool {
  const step = {
    type: 'object',
    properties: {
      agent: {
        type: 'string',
        description: `Agent of the thread: one of ${agents.join(', ') || '(none)'}${inline ? ', or a new name with inline_agent' : ''}.`,
      },
      message: { type: 'string', description: 'What the thread should do.' },
      ...(inline
        ? {
            inline_agent: {
              type: 'object',
              description: 'Define a new agent: `system`, optional `description` and `model`.',
            },
          }
        : {}),
    },
    required: ['agent', 'message'],
  };
  return {
    name: WORKFLOW_TOOL_NAME,
    description:
      'Start a workflow run: phases that run one after the other, the threads of a phase all at once. ' +
      'Returns at once; when the run ends its results arrive as a system message.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Name of the run.' },
        description: { type: 'string' },
        plan: {
          type: 'object',
          properties: {
            phases: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  name: { type: 'string' },
                  description: { type: 'string' },
                  threads: { type: 'array', items: step },
                },
                required: ['name', 'threads'],
              },
            },
          },
          required: ['phases'],
        },
      },
      required: ['name', 'plan'],
    },
    idempotent: true,
    toolset: 'platform',
    defaultPermission: 'always_allow',
    async execute(input, context): Promise<ToolOutcome> {
      if (typeof input.name !== 'string' || input.name.trim() === '')
        return fail('name must be a non-empty string.');
      const description = typeof input.description === 'string' ? input.description : null;
      const runId = await starter.start(
        { name: input.name, description, plan: input.plan },
        context.toolCallId,
      );
      return {
        status: 'ok',
        content: [
          {
            type: 'text',
            text: `Started workflow run ${runId}. Its results will arrive as a system message when it ends.`,
          },
        ],
      };
    },
  };
}
