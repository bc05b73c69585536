import { z } from 'zod';
import { IsoDateTimeSchema, MetadataPatchSchema, MetadataSchema } from '../common/common.js';
import {
  NO_HEARTBEAT,
  WorkDataSchema,
  WorkStateSchema,
  type Work,
  type WorkHeartbeat,
  type WorkQueueStats,
} from './environment-work.js';
import type { PendingToolCall } from './work-subjects.js';
import type { SkillVersionFiles } from '../skills/skill-files-subjects.js';

/**
 * The AgentScope worker protocol on `/api/environments/{id}/…` (header `X-Builder-Environment-Key`):
 * the same work items as `/v1`, in camelCase, with AgentScope's `workId`/`status`/`sessionId` spellings.
 */

export const ApiWorkItemSchema = z.object({
  type: z.literal('work'),
  id: z.string(),
  workId: z.string(),
  environmentId: z.string(),
  sessionId: z.string().nullable(),
  state: WorkStateSchema,
  status: WorkStateSchema,
  data: WorkDataSchema,
  secret: z.string().nullable(),
  metadata: MetadataSchema,
  createdAt: IsoDateTimeSchema,
  acknowledgedAt: IsoDateTimeSchema.nullable(),
  startedAt: IsoDateTimeSchema.nullable(),
  latestHeartbeatAt: IsoDateTimeSchema.nullable(),
  stopRequestedAt: IsoDateTimeSchema.nullable(),
  stoppedAt: IsoDateTimeSchema.nullable(),
});
export type ApiWorkItem = z.infer<typeof ApiWorkItemSchema>;

export function v1WorkToApi(work: Work): ApiWorkItem {
  return {
    type: 'work',
    id: work.id,
    workId: work.id,
    environmentId: work.environment_id,
    sessionId: work.data.type === 'session' ? work.data.id : null,
    state: work.state,
    status: work.state,
    data: work.data,
    secret: work.secret,
    metadata: work.metadata,
    createdAt: work.created_at,
    acknowledgedAt: work.acknowledged_at,
    startedAt: work.started_at,
    latestHeartbeatAt: work.latest_heartbeat_at,
    stopRequestedAt: work.stop_requested_at,
    stoppedAt: work.stopped_at,
  };
}

export const ApiWorkHeartbeatSchema = z.object({
  type: z.literal('work_heartbeat'),
  state: WorkStateSchema,
  lastHeartbeat: IsoDateTimeSchema,
  leaseExtended: z.boolean(),
  ttlSeconds: z.number().int(),
});
export type ApiWorkHeartbeat = z.infer<typeof ApiWorkHeartbeatSchema>;

export function v1HeartbeatToApi(beat: WorkHeartbeat): ApiWorkHeartbeat {
  return {
    type: beat.type,
    state: beat.state,
    lastHeartbeat: beat.last_heartbeat,
    leaseExtended: beat.lease_extended,
    ttlSeconds: beat.ttl_seconds,
  };
}

export const ApiWorkQueueStatsSchema = z.object({
  type: z.literal('work_queue_stats'),
  depth: z.number().int().nonnegative(),
  pending: z.number().int().nonnegative(),
  oldestQueuedAt: IsoDateTimeSchema.nullable(),
  /** AgentScope's `oldestQueuedAgeMs`, measured when the reply is made. */
  oldestQueuedAgeMs: z.number().int().nonnegative().nullable(),
  workersPolling: z.number().int().nonnegative().nullable(),
});
export type ApiWorkQueueStats = z.infer<typeof ApiWorkQueueStatsSchema>;

export function v1WorkStatsToApi(stats: WorkQueueStats, now: number): ApiWorkQueueStats {
  const oldest = stats.oldest_queued_at ? Date.parse(stats.oldest_queued_at) : null;
  return {
    type: stats.type,
    depth: stats.depth,
    pending: stats.pending,
    oldestQueuedAt: stats.oldest_queued_at,
    oldestQueuedAgeMs: oldest === null ? null : Math.max(0, now - oldest),
    workersPolling: stats.workers_polling,
  };
}

/** Long poll: the gateway keeps asking for up to `timeoutMs`, then answers 204. */
export const ApiPollWorkQuerySchema = z.object({
  workerId: z
    .string({ error: 'workerId: required, the id this worker reports in /api/hands/status' })
    .min(1)
    .max(200),
  timeoutMs: z.coerce.number().int().min(0).max(25_000).default(25_000),
});
export type ApiPollWorkQuery = z.infer<typeof ApiPollWorkQuerySchema>;

export const ApiAckWorkRequestSchema = z.strictObject({
  workerId: z.string().min(1).max(200).optional(),
  workDir: z.string().min(1).max(4096).optional(),
});
export type ApiAckWorkRequest = z.infer<typeof ApiAckWorkRequestSchema>;

/** Unlike AgentScope's timestamp-only heartbeat, a stale `expectedLastHeartbeat` is a 412. */
export const ApiHeartbeatWorkRequestSchema = z.strictObject({
  desiredTtlSeconds: z.number().int().min(1).max(3600).optional(),
  expectedLastHeartbeat: z.union([z.literal(NO_HEARTBEAT), IsoDateTimeSchema]).optional(),
});
export type ApiHeartbeatWorkRequest = z.infer<typeof ApiHeartbeatWorkRequestSchema>;

export const ApiStopWorkRequestSchema = z.strictObject({ force: z.boolean().optional() });
export type ApiStopWorkRequest = z.infer<typeof ApiStopWorkRequestSchema>;

/** AgentScope's `workerId`/`workDir` are kept as metadata keys of the same names. */
export const ApiUpdateWorkRequestSchema = z.strictObject({
  metadata: MetadataPatchSchema.optional(),
  workerId: z.string().min(1).max(200).optional(),
  workDir: z.string().min(1).max(512).optional(),
});
export type ApiUpdateWorkRequest = z.infer<typeof ApiUpdateWorkRequestSchema>;

export const ApiListWorkQuerySchema = z.object({
  state: WorkStateSchema.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  page: z.string().min(1).nullish(),
});
export type ApiListWorkQuery = z.infer<typeof ApiListWorkQuerySchema>;

export const ApiPendingToolSchema = z.object({
  id: z.string(),
  toolUseId: z.string(),
  toolCallId: z.string(),
  name: z.string(),
  toolName: z.string(),
  input: z.record(z.string(), z.unknown()),
  state: z.literal('pending'),
  eventId: z.string(),
  seq: z.number().int().positive(),
});
export type ApiPendingTool = z.infer<typeof ApiPendingToolSchema>;

export function pendingToolToApi(call: PendingToolCall): ApiPendingTool {
  return {
    id: call.toolUseId,
    toolUseId: call.toolUseId,
    toolCallId: call.toolUseId,
    name: call.name,
    toolName: call.name,
    input: call.input,
    state: 'pending',
    eventId: call.eventId,
    seq: call.seq,
  };
}

/** One result in either spelling; `content` may be text or CMA content blocks. */
const ApiToolResultSchema = z.strictObject({
  tool_use_id: z.string().min(1).optional(),
  toolUseId: z.string().min(1).optional(),
  name: z.string().optional(),
  content: z.union([z.string(), z.array(z.record(z.string(), z.unknown()))]).optional(),
  output: z.string().optional(),
  is_error: z.boolean().nullish(),
  isError: z.boolean().nullish(),
});
export type ApiToolResult = z.infer<typeof ApiToolResultSchema>;

export const ApiToolResultsRequestSchema = z.strictObject({
  results: z
    .array(ApiToolResultSchema)
    .min(1, 'results must hold at least one result')
    .max(50, 'results may hold at most 50 results'),
});
export type ApiToolResultsRequest = z.infer<typeof ApiToolResultsRequestSchema>;

const ApiSkillResourceSchema = z.object({
  encoding: z.literal('base64'),
  content: z.string(),
  executable: z.boolean(),
});

const ApiSessionSkillSchema = z.object({
  skillId: z.string(),
  versionId: z.string(),
  name: z.string(),
  description: z.string(),
  source: z.enum(['anthropic', 'custom']),
  /** SKILL.md, front matter included. */
  skillContent: z.string(),
  resources: z.record(z.string(), ApiSkillResourceSchema),
});
export type ApiSessionSkill = z.infer<typeof ApiSessionSkillSchema>;

export const ApiSessionSkillsSchema = z.object({
  sessionId: z.string(),
  agentId: z.string(),
  skills: z.array(ApiSessionSkillSchema),
});

// As in AgentScope's reference worker: scripts are written with the executable bit set.
const EXECUTABLE = /(^|\/)scripts\/|\.(sh|py)$/;

export function skillFilesToApi(
  skill: SkillVersionFiles,
  source: ApiSessionSkill['source'],
): ApiSessionSkill {
  const resources = Object.fromEntries(
    Object.entries(skill.files).map(([path, file]) => [
      path,
      { encoding: file.encoding, content: file.content, executable: EXECUTABLE.test(path) },
    ]),
  );
  return {
    skillId: skill.skill_id,
    versionId: skill.version_id,
    name: skill.name,
    description: skill.description,
    source,
    skillContent: skill.skill_md,
    resources,
  };
}
