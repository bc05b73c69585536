import type { HarnessTool, ToolOutcome } from '@agentry/harness';
import type { SessionAgent } from '@agentry/contracts';
import { defineInlineAgent, type ShownInlineAgent } from './inline-agents.js';

const DELEGATION_TOOL_NAME = 'send_message_to_agent';

/** Where a delegation goes: the thread of the named agent, created on first use. */
export interface Delegations {
  send(
    agent: SessionAgent,
    message: string,
    toolUseId: string,
    shown?: ShownInlineAgent,
  ): Promise<{ threadId: string }>;
  /** The agent of an inline thread the session already has under `name`, if any. */
  inlineThread(name: string): Promise<SessionAgent | null>;
}

/** What the primary may message: predefined agents, and inline agents it defines when `inline` is set. */
export interface DelegationTargets {
  primary: SessionAgent;
  callable: SessionAgent[];
  inline: boolean;
}

const INLINE_AGENT_SCHEMA = {
  type: 'object',
  description:
    'Define a new agent that is not saved: it gets a thread of its own named `agent`. Leave it out to message an agent you may delegate to or one you defined earlier.',
  properties: {
    system: { type: 'string', description: 'The instructions of the new agent.' },
    description: { type: 'string', description: 'What the new agent is for.' },
    model: {
      description:
        'The model the new agent runs on (a model id, or a config with `id`); yours when left out.',
    },
  },
  required: ['system'],
};

/**
 * The primary agent's way to hand work to another agent. The message goes to that agent's session thread
 * and the call returns at once; the thread's answer arrives later as a message of its own, so a long
 * sub-task holds no turn open. Re-running the call after a crash delivers the message once.
 */
export function delegationTool(targets: DelegationTargets, delegations: Delegations): HarnessTool {
  const { callable, inline } = targets;
  const names = callable.map((a) => a.name);
  const listed = names.length > 0 ? names.join(', ') : 'none';
  return {
    name: DELEGATION_TOOL_NAME,
    description:
      `Send a message to one of the agents you may delegate to (${listed})` +
      (inline ? ', or define a new agent with `inline_agent` and send it its first message' : '') +
      '. Each agent works in its own thread with its own context and keeps it across messages; its reply arrives later as a message from that agent.',
    inputSchema: {
      type: 'object',
      properties: {
        agent: inline
          ? { type: 'string', description: 'Name of the agent to message, or of the new agent.' }
          : { type: 'string', enum: names, description: 'Name of the agent to message.' },
        message: {
          type: 'string',
          description: 'What the agent should do, with everything it needs to know.',
        },
        ...(inline ? { inline_agent: INLINE_AGENT_SCHEMA } : {}),
      },
      required: ['agent', 'message'],
    },
    idempotent: true,
    toolset: 'platform',
    defaultPermission: 'always_allow',
    async execute(input, context): Promise<ToolOutcome> {
      if (typeof input.message !== 'string' || input.message.trim() === '')
        return error('message must be a non-empty string.');
      const name = typeof input.agent === 'string' ? input.agent : '';
      const predefined = callable.find((a) => a.name === name || a.id === name);
      if (predefined) {
        if (input.inline_agent !== undefined)
          return error(`${name} is a predefined agent; message it without inline_agent.`);
        return sent(predefined.name, await delegations.send(predefined, input.message, context.toolCallId));
      }
      if (!inline)
        return error(
          `No agent named ${JSON.stringify(input.agent)}; the agents you may message are: ${listed}.`,
        );
      // An inline agent keeps its thread by name: a later message (or a re-run of this call) reaches it.
      const existing = await delegations.inlineThread(name);
      if (existing) return sent(name, await delegations.send(existing, input.message, context.toolCallId));
      if (input.inline_agent === undefined)
        return error(
          `No agent named ${JSON.stringify(input.agent)}; message one of ${listed}, or define it with inline_agent.`,
        );
      const defined = defineInlineAgent(targets.primary, name, input.inline_agent);
      if (defined instanceof Error) return error(defined.message);
      return sent(
        name,
        await delegations.send(defined.run, input.message, context.toolCallId, defined.shown),
      );
    },
  };
}

function sent(name: string, { threadId }: { threadId: string }): ToolOutcome {
  return {
    status: 'ok',
    content: [
      {
        type: 'text',
        text: `Message sent to ${name} (thread ${threadId}). Its reply will arrive as a message.`,
      },
    ],
  };
}

function error(text: string): ToolOutcome {
  return { status: 'error', content: [{ type: 'text', text }] };
}
