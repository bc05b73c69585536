import { z } from 'zod';
import { InitialEventSchema } from '../session-events/inbound-events.js';
import { BudgetLimitSchema, UsageSnapshotSchema } from '../session-events/outbound-events.js';
import { StopReasonSchema } from '../session-events/stop-reason.js';
import { AgentToolParamsSchema } from '../agents/agent-tools.js';
import {
  AgentSnapshotSchema,
  McpServerSchema,
  ModelParamsSchema,
  SkillParamsSchema,
} from '../agents/agents.js';
import {
  IsoDateTimeSchema,
  LIMITS,
  ListParamsSchema,
  MetadataPatchSchema,
  MetadataSchema,
  QueryBooleanSchema,
  queryArraySchema,
} from '../common/common.js';
import { SessionResourceParamsSchema, SessionResourceSchema } from './session-resources.js';

/** `agent` in a session create: an id (latest version), a pinned version, or a version with overrides. */
export const SessionAgentParamsSchema = z.union([
  z.string().min(1, 'agent must not be empty'),
  z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('agent'),
      id: z.string().min(1),
      version: z.number().int().min(1).optional(),
    }),
    z.strictObject({
      type: z.literal('agent_with_overrides'),
      id: z.string().min(1),
      version: z.number().int().min(1).optional(),
      model: ModelParamsSchema.optional(),
      system: z.string().max(LIMITS.systemMax).nullable().optional(),
      tools: z.array(AgentToolParamsSchema).max(LIMITS.toolsMax).optional(),
      mcp_servers: z.array(McpServerSchema).max(LIMITS.mcpServersMax).optional(),
      skills: z.array(SkillParamsSchema).optional(),
    }),
  ]),
]);
export type SessionAgentParams = z.infer<typeof SessionAgentParamsSchema>;

export const CreateSessionRequestSchema = z.strictObject({
  agent: SessionAgentParamsSchema,
  environment_id: z.string().min(1),
  title: z.string().max(LIMITS.nameMax).nullable().optional(),
  metadata: MetadataSchema.optional(),
  resources: z.array(SessionResourceParamsSchema).max(100).optional(),
  vault_ids: z.array(z.string().min(1)).max(20).optional(),
  budget: BudgetLimitSchema.optional(),
  initial_events: z.array(InitialEventSchema).max(50, 'initial_events may hold at most 50 events').optional(),
});
export type CreateSessionRequest = z.infer<typeof CreateSessionRequestSchema>;

export const UpdateSessionRequestSchema = z.strictObject({
  title: z.string().max(LIMITS.nameMax).nullable().optional(),
  metadata: MetadataPatchSchema.nullable().optional(),
  budget: BudgetLimitSchema.nullable().optional(),
  vault_ids: z.array(z.string().min(1)).max(20).optional(),
  agent: z
    .strictObject({
      tools: z.array(AgentToolParamsSchema).max(LIMITS.toolsMax).optional(),
      mcp_servers: z.array(McpServerSchema).max(LIMITS.mcpServersMax).optional(),
    })
    .optional(),
});
export type UpdateSessionRequest = z.infer<typeof UpdateSessionRequestSchema>;

/** CMA session statuses; archived is `archived_at`, not a status. */
export const SessionStatusSchema = z.enum(['rescheduling', 'running', 'idle', 'terminated']);
export type SessionStatus = z.infer<typeof SessionStatusSchema>;

/** The agent version a session runs, frozen at create (overrides applied). */
const SessionAgentSchema = AgentSnapshotSchema.extend({
  // Subagents are embedded as full snapshots here; only the discriminator is checked.
  multiagent: z.looseObject({ type: z.enum(['coordinator', 'multiagent_20261001']) }).nullable(),
});
export type SessionAgent = z.infer<typeof SessionAgentSchema>;

/** Cumulative usage of a session: the same shape `session.usage` events carry. */
export const SessionUsageSchema = UsageSnapshotSchema;
export type SessionUsage = z.infer<typeof SessionUsageSchema>;

const SessionStatsSchema = z.object({
  active_seconds: z.number().nonnegative().optional(),
  duration_seconds: z.number().nonnegative().optional(),
});

const OutcomeEvaluationSchema = z.object({
  type: z.literal('outcome_evaluation'),
  outcome_id: z.string(),
  description: z.string(),
  iteration: z.number().int(),
  result: z.string(),
  explanation: z.string().nullable(),
  completed_at: IsoDateTimeSchema.nullable(),
});

/** Who created a session (the SDK's caller identity): a signed-in user, or an API key standing as a role. */
const CallerIdentitySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('person_actor'), issuer: z.string(), subject: z.string() }),
  z.object({ type: z.literal('role_actor'), arn: z.string(), role_id: z.string() }),
]);
export type CallerIdentity = z.infer<typeof CallerIdentitySchema>;

export const SessionSchema = z.object({
  type: z.literal('session'),
  id: z.string(),
  agent: SessionAgentSchema,
  environment_id: z.string(),
  title: z.string().nullable(),
  status: SessionStatusSchema,
  /** Agentry extension: why the session last went idle (CMA carries it only on `session.status_idle`). */
  stop_reason: StopReasonSchema.nullable().optional(),
  metadata: MetadataSchema,
  resources: z.array(SessionResourceSchema),
  vault_ids: z.array(z.string()),
  budget: BudgetLimitSchema.nullable(),
  usage: SessionUsageSchema,
  stats: SessionStatsSchema,
  outcome_evaluations: z.array(OutcomeEvaluationSchema),
  deployment_id: z.string().nullable().optional(),
  /** Null when no creator was recorded (sessions created before it was). */
  created_by: CallerIdentitySchema.nullable().optional(),
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema,
  archived_at: IsoDateTimeSchema.nullable(),
});
export type Session = z.infer<typeof SessionSchema>;

export const SessionDeletedSchema = z.object({ id: z.string(), type: z.literal('session_deleted') });
export type SessionDeleted = z.infer<typeof SessionDeletedSchema>;

export const ListSessionsParamsSchema = ListParamsSchema.extend({
  agent_id: z.string().optional(),
  agent_version: z.coerce.number().int().min(1).optional(),
  deployment_id: z.string().optional(),
  memory_store_id: z.string().optional(),
  statuses: queryArraySchema(SessionStatusSchema).optional(),
  include_archived: QueryBooleanSchema.optional(),
  'created_at[gt]': IsoDateTimeSchema.optional(),
  'created_at[gte]': IsoDateTimeSchema.optional(),
  'created_at[lt]': IsoDateTimeSchema.optional(),
  'created_at[lte]': IsoDateTimeSchema.optional(),
});
export type ListSessionsParams = z.infer<typeof ListSessionsParamsSchema>;
