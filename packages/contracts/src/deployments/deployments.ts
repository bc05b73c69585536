import { z } from 'zod';
import {
  SystemMessageEventParamsSchema,
  UserDefineOutcomeEventParamsSchema,
  UserMessageEventParamsSchema,
} from '../session-events/inbound-events.js';
import { BudgetLimitSchema } from '../session-events/outbound-events.js';
import {
  DescriptionSchema,
  IsoDateTimeSchema,
  ListParamsSchema,
  MetadataPatchSchema,
  MetadataSchema,
  NameSchema,
  QueryBooleanSchema,
} from '../common/common.js';
import { CronScheduleParamsSchema, CronScheduleSchema } from './cron-schedule.js';
import { AgentReferenceSchema } from '../agents/multiagent.js';
import {
  CheckoutSchema,
  MemoryStoreAccessSchema,
  SessionResourceParamsSchema,
} from '../sessions/session-resources.js';

/** An agent pinned by id (latest version at each run) or by version. */
const DeploymentAgentParamsSchema = z.union([
  z.string().min(1, 'agent must not be empty'),
  z.strictObject({
    type: z.literal('agent'),
    id: z.string().min(1),
    version: z.number().int().min(1).optional(),
  }),
]);

export const DeploymentInitialEventSchema = z.discriminatedUnion(
  'type',
  [UserMessageEventParamsSchema, UserDefineOutcomeEventParamsSchema, SystemMessageEventParamsSchema],
  {
    error: (i) =>
      i.code === 'invalid_union'
        ? 'type must be one of: user.message, user.define_outcome, system.message'
        : undefined,
  },
);
export type DeploymentInitialEvent = z.infer<typeof DeploymentInitialEventSchema>;

const InitialEventsSchema = z
  .array(DeploymentInitialEventSchema)
  .min(1, 'initial_events must hold at least one event')
  .max(50);

export const CreateDeploymentRequestSchema = z.strictObject({
  name: NameSchema,
  agent: DeploymentAgentParamsSchema,
  environment_id: z.string().min(1),
  initial_events: InitialEventsSchema,
  description: DescriptionSchema.nullable().optional(),
  schedule: CronScheduleParamsSchema.nullable().optional(),
  resources: z.array(SessionResourceParamsSchema).max(100).optional(),
  vault_ids: z.array(z.string().min(1)).max(20).optional(),
  budget: BudgetLimitSchema.nullable().optional(),
  metadata: MetadataSchema.optional(),
});
export type CreateDeploymentRequest = z.infer<typeof CreateDeploymentRequestSchema>;

export const UpdateDeploymentRequestSchema = z.strictObject({
  name: NameSchema.optional(),
  agent: DeploymentAgentParamsSchema.optional(),
  environment_id: z.string().min(1).optional(),
  initial_events: InitialEventsSchema.optional(),
  description: DescriptionSchema.nullable().optional(),
  schedule: CronScheduleParamsSchema.nullable().optional(),
  resources: z.array(SessionResourceParamsSchema).max(100).nullable().optional(),
  vault_ids: z.array(z.string().min(1)).max(20).nullable().optional(),
  budget: BudgetLimitSchema.nullable().optional(),
  metadata: MetadataPatchSchema.nullable().optional(),
});
export type UpdateDeploymentRequest = z.infer<typeof UpdateDeploymentRequestSchema>;

const DeploymentStatusSchema = z.enum(['active', 'paused']);

/** Why a run could not start; some of these pause the deployment. */
export const DeploymentErrorSchema = z.object({ type: z.string(), message: z.string().optional() });
export type DeploymentError = z.infer<typeof DeploymentErrorSchema>;

const DeploymentPausedReasonSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('manual') }),
  z.object({ type: z.literal('error'), error: DeploymentErrorSchema }),
]);

/** Resources as a deployment stores them: like session resources, without tokens. */
const DeploymentResourceSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('github_repository'),
    url: z.string(),
    checkout: CheckoutSchema.nullable().optional(),
    mount_path: z.string().nullable().optional(),
  }),
  z.object({ type: z.literal('file'), file_id: z.string(), mount_path: z.string().nullable().optional() }),
  z.object({
    type: z.literal('memory_store'),
    memory_store_id: z.string(),
    access: MemoryStoreAccessSchema.nullable().optional(),
    instructions: z.string().nullable().optional(),
  }),
]);

export const DeploymentSchema = z.object({
  type: z.literal('deployment'),
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  agent: AgentReferenceSchema,
  environment_id: z.string(),
  initial_events: z.array(DeploymentInitialEventSchema),
  resources: z.array(DeploymentResourceSchema),
  vault_ids: z.array(z.string()),
  budget: BudgetLimitSchema.nullable().optional(),
  schedule: CronScheduleSchema.nullable(),
  status: DeploymentStatusSchema,
  paused_reason: DeploymentPausedReasonSchema.nullable(),
  metadata: MetadataSchema,
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema,
  archived_at: IsoDateTimeSchema.nullable(),
  /** Agentry extension: whether a webhook token can trigger runs (the token itself is never returned). */
  webhook_enabled: z.boolean().optional(),
});
export type Deployment = z.infer<typeof DeploymentSchema>;

export const ListDeploymentsParamsSchema = ListParamsSchema.extend({
  agent_id: z.string().optional(),
  status: DeploymentStatusSchema.optional(),
});
export type ListDeploymentsParams = z.infer<typeof ListDeploymentsParamsSchema>;

const DeploymentTriggerContextSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('schedule'), scheduled_at: IsoDateTimeSchema }),
  z.object({ type: z.literal('manual') }),
]);

/** One fire of a deployment: it either created a session or failed with an error. */
export const DeploymentRunSchema = z.object({
  type: z.literal('deployment_run'),
  id: z.string(),
  deployment_id: z.string(),
  agent: AgentReferenceSchema,
  session_id: z.string().nullable(),
  error: DeploymentErrorSchema.nullable(),
  trigger_context: DeploymentTriggerContextSchema,
  created_at: IsoDateTimeSchema,
});
export type DeploymentRun = z.infer<typeof DeploymentRunSchema>;

export const ListDeploymentRunsParamsSchema = ListParamsSchema.extend({
  deployment_id: z.string().optional(),
  has_error: QueryBooleanSchema.optional(),
  trigger_type: z.enum(['schedule', 'manual']).optional(),
});
export type ListDeploymentRunsParams = z.infer<typeof ListDeploymentRunsParamsSchema>;
