import { z } from 'zod';
import { isCronExpression, isIanaTimeZone } from './cron-schedule.js';
import type {
  CreateDeploymentRequest,
  Deployment,
  DeploymentInitialEvent,
  DeploymentRun,
  UpdateDeploymentRequest,
} from './deployments.js';

/** AgentScope-style (camelCase) deployment shapes served on `/api/deployments`. */

const ApiTriggerTypeSchema = z.enum(['manual', 'cron', 'webhook']);
type ApiTriggerType = z.infer<typeof ApiTriggerTypeSchema>;

const CronExpressionSchema = z
  .string()
  .refine(isCronExpression, 'must be a 5-field cron expression (L, W, # and ? are not supported)');
const TimezoneSchema = z.string().refine(isIanaTimeZone, 'must be an IANA time zone such as "Europe/Berlin"');
const TextSchema = z.string().min(1, 'text must not be empty').max(100_000);

export const ApiCreateDeploymentRequestSchema = z
  .strictObject({
    name: z.string().min(1, 'name required').max(256),
    description: z.string().max(2048).nullish(),
    agentId: z.string().min(1, 'agentId required'),
    /** Pins a version; omitted, every run uses the agent's latest version. */
    agentVersion: z.number().int().min(1).nullish(),
    environmentId: z.string().min(1, 'environmentId required'),
    triggerType: ApiTriggerTypeSchema.default('manual'),
    cronExpression: CronExpressionSchema.nullish(),
    timezone: TimezoneSchema.nullish(),
    /** The user message each run starts with; defaults to a line naming the deployment. */
    text: TextSchema.nullish(),
    metadata: z.record(z.string(), z.string()).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.triggerType === 'cron' && !body.cronExpression) {
      ctx.addIssue({
        code: 'custom',
        path: ['cronExpression'],
        message: 'required when triggerType is cron',
      });
    }
    if (body.triggerType !== 'cron' && body.cronExpression) {
      ctx.addIssue({
        code: 'custom',
        path: ['cronExpression'],
        message: 'only allowed when triggerType is cron',
      });
    }
  });
export type ApiCreateDeploymentRequest = z.infer<typeof ApiCreateDeploymentRequestSchema>;

export const ApiUpdateDeploymentRequestSchema = z.strictObject({
  name: z.string().min(1).max(256).optional(),
  description: z.string().max(2048).nullish(),
  agentId: z.string().min(1).optional(),
  /** A number pins that version; null follows the latest version again. */
  agentVersion: z.number().int().min(1).nullish(),
  environmentId: z.string().min(1).optional(),
  triggerType: ApiTriggerTypeSchema.optional(),
  cronExpression: CronExpressionSchema.optional(),
  timezone: TimezoneSchema.optional(),
  text: TextSchema.optional(),
  /** false pauses, true unpauses (AgentScope's toggle). */
  enabled: z.boolean().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
});
export type ApiUpdateDeploymentRequest = z.infer<typeof ApiUpdateDeploymentRequestSchema>;

/** `POST /api/deployments/{id}/run` and the webhook: an optional message replacing the stored one. */
export const ApiRunDeploymentRequestSchema = z.strictObject({ text: TextSchema.nullish() });
export type ApiRunDeploymentRequest = z.infer<typeof ApiRunDeploymentRequestSchema>;

export const ApiDeploymentSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  agentId: z.string(),
  agentVersion: z.number().int(),
  environmentId: z.string(),
  triggerType: ApiTriggerTypeSchema,
  cronExpression: z.string().nullable(),
  timezone: z.string().nullable(),
  text: z.string().nullable(),
  enabled: z.boolean(),
  status: z.enum(['active', 'paused']),
  pausedReason: z
    .object({
      type: z.string(),
      error: z.object({ type: z.string(), message: z.string().optional() }).optional(),
    })
    .nullable(),
  lastRunAt: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  archivedAt: z.string().nullable(),
  /** The webhook token in clear text: only in the reply that minted it. */
  webhookToken: z.string().optional(),
});
export type ApiDeployment = z.infer<typeof ApiDeploymentSchema>;

export const ApiDeploymentRunSchema = z.object({
  id: z.string(),
  deploymentId: z.string(),
  sessionId: z.string().nullable(),
  status: z.enum(['succeeded', 'failed']),
  error: z.object({ type: z.string(), message: z.string().optional() }).nullable(),
  triggerType: z.enum(['schedule', 'manual']),
  createdAt: z.string(),
});
export type ApiDeploymentRun = z.infer<typeof ApiDeploymentRunSchema>;

export function textToInitialEvents(text: string): DeploymentInitialEvent[] {
  return [{ type: 'user.message', content: [{ type: 'text', text }] }];
}

/** Maps an `/api` create body to `/v1`; the webhook token is minted by a separate call. */
export function apiDeploymentToV1(req: ApiCreateDeploymentRequest): CreateDeploymentRequest {
  const out: CreateDeploymentRequest = {
    name: req.name,
    agent: req.agentVersion ? { type: 'agent', id: req.agentId, version: req.agentVersion } : req.agentId,
    environment_id: req.environmentId,
    initial_events: textToInitialEvents(req.text ?? `Deployment "${req.name}" was triggered.`),
  };
  if (req.description !== undefined) out.description = req.description;
  if (req.metadata) out.metadata = req.metadata;
  if (req.triggerType === 'cron' && req.cronExpression) {
    out.schedule = { type: 'cron', expression: req.cronExpression, timezone: req.timezone ?? 'UTC' };
  }
  return out;
}

/** Maps an `/api` patch to `/v1` given the current definition; `enabled` and the webhook are separate calls. */
export function apiDeploymentUpdateToV1(
  req: ApiUpdateDeploymentRequest,
  current: Deployment,
): UpdateDeploymentRequest {
  const out: UpdateDeploymentRequest = {};
  if (req.name !== undefined) out.name = req.name;
  if (req.description !== undefined) out.description = req.description;
  if (req.environmentId !== undefined) out.environment_id = req.environmentId;
  if (req.metadata !== undefined) out.metadata = req.metadata;
  if (req.text !== undefined) out.initial_events = textToInitialEvents(req.text);
  if (req.agentId !== undefined || req.agentVersion !== undefined) {
    const id = req.agentId ?? current.agent.id;
    out.agent = req.agentVersion ? { type: 'agent', id, version: req.agentVersion } : id;
  }
  const trigger = req.triggerType ?? apiTriggerType(current);
  if (trigger !== 'cron') {
    if (current.schedule) out.schedule = null;
  } else if (req.cronExpression !== undefined || req.timezone !== undefined || !current.schedule) {
    const expression = req.cronExpression ?? current.schedule?.expression;
    // A switch to cron with no expression anywhere leaves `expression` empty, which `/v1` rejects by name.
    out.schedule = {
      type: 'cron',
      expression: expression ?? '',
      timezone: req.timezone ?? current.schedule?.timezone ?? 'UTC',
    };
  }
  return out;
}

function apiTriggerType(deployment: Deployment): ApiTriggerType {
  if (deployment.schedule) return 'cron';
  return deployment.webhook_enabled ? 'webhook' : 'manual';
}

function firstText(events: DeploymentInitialEvent[]): string | null {
  for (const event of events) {
    if (event.type !== 'user.message') continue;
    const block = event.content.find((b) => b.type === 'text');
    if (block && block.type === 'text') return block.text;
  }
  return null;
}

export function v1DeploymentToApi(deployment: Deployment, webhookToken?: string): ApiDeployment {
  const out: ApiDeployment = {
    id: deployment.id,
    name: deployment.name,
    description: deployment.description,
    agentId: deployment.agent.id,
    agentVersion: deployment.agent.version,
    environmentId: deployment.environment_id,
    triggerType: apiTriggerType(deployment),
    cronExpression: deployment.schedule?.expression ?? null,
    timezone: deployment.schedule?.timezone ?? null,
    text: firstText(deployment.initial_events),
    enabled: deployment.status === 'active',
    status: deployment.status,
    pausedReason: deployment.paused_reason,
    lastRunAt: deployment.schedule?.last_run_at ?? null,
    metadata: deployment.metadata,
    createdAt: deployment.created_at,
    updatedAt: deployment.updated_at,
    archivedAt: deployment.archived_at,
  };
  if (webhookToken !== undefined) out.webhookToken = webhookToken;
  return out;
}

export function v1DeploymentRunToApi(run: DeploymentRun): ApiDeploymentRun {
  return {
    id: run.id,
    deploymentId: run.deployment_id,
    sessionId: run.session_id,
    status: run.error ? 'failed' : 'succeeded',
    error: run.error,
    triggerType: run.trigger_context.type,
    createdAt: run.created_at,
  };
}
