import { z } from 'zod';
import { ActorSchema } from '../nats/actor.js';
import { rpcSubject, V1 } from '../nats/subject.js';
import {
  DeploymentErrorSchema,
  DeploymentInitialEventSchema,
  DeploymentRunSchema,
  DeploymentSchema,
} from './deployments.js';

/** Who fired a run. `cron` and `webhook` are autonomous; CMA reports both `manual` and `webhook` as `manual`. */
const DeploymentRunTriggerSchema = z.enum(['cron', 'manual', 'webhook']);
export type DeploymentRunTrigger = z.infer<typeof DeploymentRunTriggerSchema>;

const InitialEventsOverrideSchema = z.array(DeploymentInitialEventSchema).min(1).max(50).optional();

const RunDeploymentRpcRequestSchema = z.object({
  v: V1,
  actor: ActorSchema,
  id: z.string().min(1),
  trigger: z.enum(['manual', 'webhook']).default('manual'),
  /** Replaces the deployment's `initial_events` for this run only. */
  initial_events: InitialEventsOverrideSchema,
});

const MULTIAGENT_MAX_AGENTS = 20;

const MultiagentRunRpcRequestSchema = z.object({
  v: V1,
  actor: ActorSchema,
  agent_ids: z.array(z.string().min(1)).min(1).max(MULTIAGENT_MAX_AGENTS),
  message: z.string().min(1),
  environment_id: z.string().min(1),
  parallel: z.boolean().default(true),
  /** How long to wait for every session to settle; entries still running then report `timeout`. */
  timeout_ms: z.number().int().min(1_000).max(86_400_000).default(120_000),
});
export type MultiagentRunRpcRequest = z.infer<typeof MultiagentRunRpcRequestSchema>;

const MultiagentRunResultSchema = z.object({
  agent_id: z.string(),
  session_id: z.string().nullable(),
  /** The session status it settled in, or `timeout` / `error` when it never got there. */
  status: z.enum(['idle', 'terminated', 'timeout', 'error']),
  /** Text of the last `agent.message`, or null when the agent said nothing. */
  reply: z.string().nullable(),
  error: z.string().nullable(),
});

export type MultiagentRunReply = {
  results: z.infer<typeof MultiagentRunResultSchema>[];
};

/** One agent's part of a durable run: `pending` until its session exists, `running` until it settles. */
const MultiagentRunEntrySchema = MultiagentRunResultSchema.extend({
  status: z.enum(['pending', 'running', 'idle', 'terminated', 'timeout', 'error']),
});
export type MultiagentRunEntry = z.infer<typeof MultiagentRunEntrySchema>;

/** A multi-agent run as stored: it outlives the request that started it and any scheduler restart. */
export const MultiagentRunSchema = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'completed']),
  message: z.string(),
  environment_id: z.string(),
  parallel: z.boolean(),
  results: z.array(MultiagentRunEntrySchema),
  created_at: z.string(),
  deadline_at: z.string(),
  finished_at: z.string().nullable(),
});
export type MultiagentRun = z.infer<typeof MultiagentRunSchema>;

const RunByIdRequestSchema = z.object({ v: V1, actor: ActorSchema, id: z.string().min(1) });

/** Request/reply subjects the scheduler serves: running deployments and multi-agent fan-out. */
export const SchedulerSubjects = {
  runDeployment: rpcSubject('scheduler.deployment.run', RunDeploymentRpcRequestSchema, DeploymentRunSchema),
  /** A run started by a webhook token; the token is the only credential. Unknown token → NOT_FOUND. */
  runDeploymentByWebhook: rpcSubject(
    'scheduler.deployment.run_webhook',
    z.object({ v: V1, token: z.string().min(1), initial_events: InitialEventsOverrideSchema }),
    DeploymentRunSchema,
  ),
  /** Records the run and queues it; answers at once with the run (status `queued`). */
  startMultiagentRun: rpcSubject(
    'scheduler.multiagent.start',
    MultiagentRunRpcRequestSchema,
    MultiagentRunSchema,
  ),
  getMultiagentRun: rpcSubject('scheduler.multiagent.get', RunByIdRequestSchema, MultiagentRunSchema),
  /** The run once it completes, or as it stands after `wait_ms`, whichever comes first. */
  awaitMultiagentRun: rpcSubject(
    'scheduler.multiagent.await',
    RunByIdRequestSchema.extend({ wait_ms: z.number().int().min(0).max(60_000) }),
    MultiagentRunSchema,
  ),
} as const;

const StartDeploymentRunReplySchema = z.object({
  /** The run record: final when the session could not be created, else carrying `session_id`. */
  run: DeploymentRunSchema,
  /** The events to send to the new session (the override, else the deployment's own). */
  initial_events: z.array(DeploymentInitialEventSchema),
});
export type StartDeploymentRunReply = z.infer<typeof StartDeploymentRunReplySchema>;

/** Control's half of a run: definitions and run records stay in control; the scheduler drives the run. */
export const DeploymentRunSubjects = {
  /**
   * Resolves the deployment (missing → NOT_FOUND; paused or archived → CONFLICT), records the run
   * (a second run for the same `scheduled_for` → CONFLICT) and creates its session. A failure that
   * will not fix itself (agent archived, environment gone…) records a failed run and auto-pauses.
   */
  start: rpcSubject(
    'control.deployment_run.start',
    z.object({
      v: V1,
      actor: ActorSchema,
      id: z.string().min(1),
      trigger: DeploymentRunTriggerSchema,
      scheduled_for: z.iso.datetime({ offset: true }).optional(),
      initial_events: InitialEventsOverrideSchema,
    }),
    StartDeploymentRunReplySchema,
  ),
  /** Marks a started run finished; an error here means the session exists but its turn did not start. */
  finish: rpcSubject(
    'control.deployment_run.finish',
    z.object({
      v: V1,
      actor: ActorSchema,
      run_id: z.string().min(1),
      error: DeploymentErrorSchema.nullable().default(null),
    }),
    DeploymentRunSchema,
  ),
  /** Mints a fresh webhook token (the only time it is visible) or, with `enabled: false`, removes it. */
  setWebhook: rpcSubject(
    'control.deployment.set_webhook',
    z.object({ v: V1, actor: ActorSchema, id: z.string().min(1), enabled: z.boolean() }),
    z.object({ deployment: DeploymentSchema, token: z.string().nullable() }),
  ),
  /** Who a webhook token acts as; unknown or archived → NOT_FOUND. */
  resolveWebhook: rpcSubject(
    'control.deployment.resolve_webhook',
    z.object({ v: V1, token: z.string().min(1) }),
    z.object({ deployment_id: z.string(), actor: ActorSchema }),
  ),
} as const;

/** Published by control whenever a deployment's schedule, status or archive state may have changed. */
export const DeploymentChangedSchema = z.object({ deployment_id: z.string() });
export type DeploymentChanged = z.infer<typeof DeploymentChangedSchema>;
export const SchedulerPubSubjects = {
  deploymentChanged: 'sched.deployment.changed',
} as const;
