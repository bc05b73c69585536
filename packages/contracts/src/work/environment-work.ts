import { z } from 'zod';
import { fromBase64Url, toBase64Url } from '../common/base64url.js';
import { IsoDateTimeSchema, MetadataPatchSchema, MetadataSchema } from '../common/common.js';

/** Work items of self-hosted environments: queued per session, leased by a polling worker. */

export const WorkStateSchema = z.enum(['queued', 'starting', 'active', 'stopping', 'stopped']);
export type WorkState = z.infer<typeof WorkStateSchema>;

export const WorkDataSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('session'), id: z.string() }),
  z.object({ type: z.literal('healthcheck'), id: z.string() }),
]);

export const WorkSchema = z.object({
  type: z.literal('work'),
  id: z.string(),
  environment_id: z.string(),
  state: WorkStateSchema,
  data: WorkDataSchema,
  /** base64url JSON of `WorkSecret`; only in the poll reply that hands the item out. */
  secret: z.string().nullable(),
  metadata: MetadataSchema,
  created_at: IsoDateTimeSchema,
  acknowledged_at: IsoDateTimeSchema.nullable(),
  started_at: IsoDateTimeSchema.nullable(),
  latest_heartbeat_at: IsoDateTimeSchema.nullable(),
  stop_requested_at: IsoDateTimeSchema.nullable(),
  stopped_at: IsoDateTimeSchema.nullable(),
});
export type Work = z.infer<typeof WorkSchema>;

/** What `secret` decodes to: a bearer token scoped to the one session, and where to use it. */
const WorkSecretSchema = z.object({
  sessions_token: z.string().min(1),
  api_base_url: z.string().optional(),
});
export type WorkSecret = z.infer<typeof WorkSecretSchema>;

export function encodeWorkSecret(secret: WorkSecret): string {
  return toBase64Url(JSON.stringify(secret));
}

/** Decodes and validates a work secret; throws on anything malformed. */
export function decodeWorkSecret(encoded: string): WorkSecret {
  return WorkSecretSchema.parse(JSON.parse(fromBase64Url(encoded)));
}

/** `GET …/work/poll`: a long poll of at most one second; stale starting items may be reclaimed. */
export const PollWorkParamsSchema = z.object({
  block_ms: z.coerce.number().int().min(1).max(999).optional(),
  reclaim_older_than_ms: z.coerce.number().int().min(0).optional(),
});
export type PollWorkParams = z.infer<typeof PollWorkParamsSchema>;

/** The first heartbeat sends this instead of a timestamp. */
export const NO_HEARTBEAT = 'NO_HEARTBEAT';

/** `POST …/work/{id}/heartbeat?desired_ttl_seconds=&expected_last_heartbeat=`; a mismatch is a 412. */
export const HeartbeatWorkParamsSchema = z.object({
  desired_ttl_seconds: z.coerce.number().int().min(1).max(3600).optional(),
  expected_last_heartbeat: z.union([z.literal(NO_HEARTBEAT), IsoDateTimeSchema]).optional(),
});
export type HeartbeatWorkParams = z.infer<typeof HeartbeatWorkParamsSchema>;

export const WorkHeartbeatSchema = z.object({
  type: z.literal('work_heartbeat'),
  state: WorkStateSchema,
  last_heartbeat: IsoDateTimeSchema,
  lease_extended: z.boolean(),
  ttl_seconds: z.number().int(),
});
export type WorkHeartbeat = z.infer<typeof WorkHeartbeatSchema>;

export const StopWorkRequestSchema = z.strictObject({ force: z.boolean().optional() });
export type StopWorkRequest = z.infer<typeof StopWorkRequestSchema>;

export const UpdateWorkRequestSchema = z.strictObject({ metadata: MetadataPatchSchema });
export type UpdateWorkRequest = z.infer<typeof UpdateWorkRequestSchema>;

export const WorkQueueStatsSchema = z.object({
  type: z.literal('work_queue_stats'),
  depth: z.number().int().nonnegative(),
  pending: z.number().int().nonnegative(),
  oldest_queued_at: IsoDateTimeSchema.nullable(),
  workers_polling: z.number().int().nonnegative().nullable(),
});
export type WorkQueueStats = z.infer<typeof WorkQueueStatsSchema>;
