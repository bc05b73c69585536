import type { HarnessTool, ToolOutcome } from '@agentry/harness';
import type { SessionAgent } from '@agentry/contracts';

const DELEGATION_TOOL_NAME = 'send_message_to_agent';

/** Where a delegation goes: the thread of the named agent, created on first use. */
export interface Delegations {
  send(agent: SessionAgent, message: string, toolUseId: string): Promise<{ threadId: string }>;
}

/**
 * The primary agent's way to hand work to a callable agent. The message goes to that agent's session
 * thread and the call returns at once; the thread's answer arrives later as a message of its own, so a
 * long sub-task holds no turn open. Re-running the call after a crash delivers the message once.
 */
export function delegationTool(callable: SessionAgent[], delegations: Delegations): HarnessTool {
  const names = callable.map((a) => a.name);
  return {
    name: DELEGATION_TOOL_NAME,
    description:
      `Send a message to one of the agents you may delegate to (${names.join(', ')}). Each agent works in its own ` +
      'thread with its own context and keeps it across messages; its reply arrives later as a message from that agent.',
    inputSchema: {
      type: 'object',
      properties: {
        agent: { type: 'string', enum: names, description: 'Name of the agent to message.' },
        message: {
          type: 'string',
          description: 'What the agent should do, with everything it needs to know.',
        },
      },
      required: ['agent', 'message'],
    },
    idempotent: true,
    toolset: 'platform',
    defaultPermission: 'always_allow',
    async execute(input, context): Promise<ToolOutcome> {
      const agent = callable.find((a) => a.name === input.agent || a.id === input.agent);
      if (!agent)
        return error(
          `No agent named ${JSON.stringify(input.agent)}; the agents you may message are: ${names.join(', ')}.`,
        );
      if (typeof input.message !== 'string' || input.message.trim() === '')
        return error('message must be a non-empty string.');
      const { threadId } = await delegations.send(agent, input.message, context.toolCallId);
      return {
        status: 'ok',
        content: [
          {
            type: 'text',
            text: `Message sent to ${agent.name} (thread ${threadId}). Its reply will arrive as a message.`,
          },
        ],
      };
    },
  };
}

function error(text: string): ToolOutcome {
  return { status: 'error', content: [{ type: 'text', text }] };
}
