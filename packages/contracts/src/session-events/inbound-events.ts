import { z } from 'zod';
import { TextBlockSchema, ToolResultContentBlockSchema, UserContentBlockSchema } from './content-blocks.js';
import { INBOUND_EVENT_TYPES } from './event-types.js';

/** Request shapes of the events a client may POST; strict, so unknown fields are a 400. */
export const UserMessageEventParamsSchema = z.strictObject({
  type: z.literal('user.message'),
  content: z.array(UserContentBlockSchema).min(1, 'content must hold at least one block'),
});
export type UserMessageEventParams = z.infer<typeof UserMessageEventParamsSchema>;

export const UserInterruptEventParamsSchema = z.strictObject({
  type: z.literal('user.interrupt'),
  session_thread_id: z.string().nullable().optional(),
});

export const UserToolConfirmationEventParamsSchema = z.strictObject({
  type: z.literal('user.tool_confirmation'),
  tool_use_id: z.string().min(1),
  result: z.enum(['allow', 'deny']),
  deny_message: z.string().max(10_000).nullable().optional(),
  /** Agentry extension: the thread the call is in; the call's id alone routes it (as on CMA). */
  session_thread_id: z.string().nullable().optional(),
});

export const UserToolResultEventParamsSchema = z.strictObject({
  type: z.literal('user.tool_result'),
  tool_use_id: z.string().min(1),
  content: z.array(ToolResultContentBlockSchema).optional(),
  is_error: z.boolean().nullable().optional(),
});

export const UserCustomToolResultEventParamsSchema = z.strictObject({
  type: z.literal('user.custom_tool_result'),
  custom_tool_use_id: z.string().min(1),
  content: z.array(ToolResultContentBlockSchema).optional(),
  is_error: z.boolean().nullable().optional(),
  /** Agentry extension: the thread the call is in; the call's id alone routes it (as on CMA). */
  session_thread_id: z.string().nullable().optional(),
});

const RubricSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), content: z.string().min(1) }),
  z.strictObject({ type: z.literal('file'), file_id: z.string().min(1) }),
]);

export const UserDefineOutcomeEventParamsSchema = z.strictObject({
  type: z.literal('user.define_outcome'),
  description: z.string().min(1),
  rubric: RubricSchema,
  max_iterations: z.number().int().min(1).max(20).nullable().optional(),
});

export const SystemMessageEventParamsSchema = z.strictObject({
  type: z.literal('system.message'),
  content: z.array(TextBlockSchema).min(1, 'content must hold at least one block'),
});

/** The user's answer to an `agent.mcp_elicitation`: `accept` makes the waiting MCP call again. */
const McpElicitationAnswerSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({
      type: z.literal('accept'),
      /**
       * Agentry extension: the token the consent yielded (the OAuth provider hands it to the application the
       * person returned to). It is stored in the answering caller's consent vault for the MCP server and
       * taken out of the event before it is recorded: it is never in the log, a stream or a response.
       */
      credential: z
        .strictObject({
          access_token: z
            .string()
            .min(1, 'response.credential.access_token must not be empty')
            .max(8192, 'response.credential.access_token must be at most 8192 characters'),
        })
        .optional(),
    }),
    z.strictObject({ type: z.literal('decline') }),
    z.strictObject({ type: z.literal('cancel') }),
  ],
  { error: () => 'response.type must be one of: accept, decline, cancel' },
);

export const UserMcpElicitationResponseEventParamsSchema = z.strictObject({
  type: z.literal('user.mcp_elicitation_response'),
  mcp_elicitation_id: z.string().min(1).max(128),
  response: McpElicitationAnswerSchema,
});

const UNKNOWN_TYPE_MESSAGE = `type must be one of: ${INBOUND_EVENT_TYPES.join(', ')}`;

/** Any event a client may send; an unknown or missing `type` gets a message listing the allowed ones. */
export const InboundEventSchema = z.discriminatedUnion(
  'type',
  [
    UserMessageEventParamsSchema,
    UserInterruptEventParamsSchema,
    UserToolConfirmationEventParamsSchema,
    UserToolResultEventParamsSchema,
    UserCustomToolResultEventParamsSchema,
    UserDefineOutcomeEventParamsSchema,
    SystemMessageEventParamsSchema,
    UserMcpElicitationResponseEventParamsSchema,
  ],
  { error: (issue) => (issue.code === 'invalid_union' ? UNKNOWN_TYPE_MESSAGE : undefined) },
);
export type InboundEvent = z.infer<typeof InboundEventSchema>;

/** Batches are all-or-nothing; CMA caps one POST at 50 events. */
const MAX_EVENTS_PER_REQUEST = 50;

export const SendEventsRequestSchema = z.strictObject({
  events: z
    .array(InboundEventSchema)
    .min(1, 'events must hold at least one event')
    .max(MAX_EVENTS_PER_REQUEST, `events may hold at most ${MAX_EVENTS_PER_REQUEST} events`),
});
export type SendEventsRequest = z.infer<typeof SendEventsRequestSchema>;

/** Session create accepts only these as `initial_events`. */
export const InitialEventSchema = z.discriminatedUnion(
  'type',
  [UserMessageEventParamsSchema, UserDefineOutcomeEventParamsSchema],
  {
    error: (issue) =>
      issue.code === 'invalid_union' ? 'type must be one of: user.message, user.define_outcome' : undefined,
  },
);
