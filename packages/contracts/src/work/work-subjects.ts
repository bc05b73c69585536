import { z } from 'zod';
import { HandsWorkerSchema } from '../hands/hands-heartbeat.js';
import { rpcSubject, V1 } from '../nats/subject.js';
import { pageSchema } from '../common/paging.js';
import {
  UpdateWorkRequestSchema,
  WorkHeartbeatSchema,
  WorkQueueStatsSchema,
  WorkSchema,
  WorkStateSchema,
} from './environment-work.js';

/**
 * Who is talking to a self-hosted environment's work queue. A worker authenticates with an
 * environment key (any item of that environment) or with one item's sessions token (that item and
 * its session only). Users and API keys reach the read-only routes through the same scope.
 */
const WorkPrincipalSchema = z.object({
  tenantId: z.string().min(1),
  namespaceId: z.string().min(1),
  environmentId: z.string().min(1),
  /** Set only for a sessions-token principal. */
  workId: z.string().nullable().default(null),
  sessionId: z.string().nullable().default(null),
});
export type WorkPrincipal = z.infer<typeof WorkPrincipalSchema>;

const ByPrincipal = { v: V1, principal: WorkPrincipalSchema };
const ByWork = { ...ByPrincipal, workId: z.string().min(1) };

/** A self-hosted tool call the Brain is waiting on: an `agent.tool_use` with no result yet. */
const PendingToolCallSchema = z.object({
  eventId: z.string(),
  seq: z.number().int().positive(),
  toolUseId: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
});
export type PendingToolCall = z.infer<typeof PendingToolCallSchema>;

/** What the Hands look like right now, for `/api/hands/status` and `/v1/hands/status`. */
export const HandsStatusSchema = z.object({
  brainInstanceId: z.string(),
  pendingWorkItems: z.number().int().nonnegative(),
  /** Self-hosted workers: workerId → epoch milliseconds of its last poll. */
  workerHeartbeats: z.record(z.string(), z.number()),
  /** Every live worker, cluster (heartbeat within its TTL) and self-hosted (polled within the window). */
  workers: z.array(HandsWorkerSchema),
});
export type HandsStatus = z.infer<typeof HandsStatusSchema>;

/** Control verifies environment keys (it stores their hashes). Unknown or revoked → UNAUTHENTICATED. */
export const WorkerAuthSubjects = {
  verifyEnvironmentKey: rpcSubject(
    'control.auth.verify_environment_key',
    z.object({ v: V1, key: z.string().min(1) }),
    WorkPrincipalSchema,
  ),
} as const;

/** The dataplane owns work items (one per self-hosted session with work to do). */
export const WorkSubjects = {
  /** Claims the oldest queued item (or a stale one); waits up to blockMs. `secret` is set only here. */
  poll: rpcSubject(
    'dataplane.work.poll',
    z.object({
      ...ByPrincipal,
      workerId: z.string().min(1).max(200),
      blockMs: z.number().int().min(0).max(1000).default(0),
      reclaimOlderThanMs: z.number().int().min(0).optional(),
    }),
    z.object({ work: WorkSchema.nullable() }),
  ),
  ack: rpcSubject(
    'dataplane.work.ack',
    z.object({
      ...ByWork,
      workerId: z.string().max(200).optional(),
      workDir: z.string().max(4096).optional(),
    }),
    WorkSchema,
  ),
  /** PRECONDITION_FAILED (412) when expectedLastHeartbeat is not the item's last heartbeat. */
  heartbeat: rpcSubject(
    'dataplane.work.heartbeat',
    z.object({
      ...ByWork,
      desiredTtlSeconds: z.number().int().min(1).max(3600).optional(),
      expectedLastHeartbeat: z.string().optional(),
    }),
    WorkHeartbeatSchema,
  ),
  stop: rpcSubject('dataplane.work.stop', z.object({ ...ByWork, force: z.boolean().optional() }), WorkSchema),
  get: rpcSubject('dataplane.work.get', z.object(ByWork), WorkSchema),
  update: rpcSubject(
    'dataplane.work.update',
    z.object({ ...ByWork, body: UpdateWorkRequestSchema }),
    WorkSchema,
  ),
  list: rpcSubject(
    'dataplane.work.list',
    z.object({
      ...ByPrincipal,
      state: WorkStateSchema.optional(),
      limit: z.number().int().min(1).max(1000).default(20),
      page: z.string().optional(),
    }),
    pageSchema(WorkSchema),
  ),
  stats: rpcSubject('dataplane.work.stats', z.object(ByPrincipal), WorkQueueStatsSchema),
  /** Resolves an item's sessions token. Unknown, or the item stopped → UNAUTHENTICATED. */
  verifySessionsToken: rpcSubject(
    'dataplane.work.verify_sessions_token',
    z.object({ v: V1, token: z.string().min(1) }),
    WorkPrincipalSchema,
  ),
  /** The session's self-hosted tool calls still waiting for a `user.tool_result`, in seq order. */
  pendingTools: rpcSubject(
    'dataplane.work.pending_tools',
    z.object({ ...ByPrincipal, sessionId: z.string().min(1) }),
    z.object({ data: z.array(PendingToolCallSchema) }),
  ),
  handsStatus: rpcSubject(
    'dataplane.hands.status',
    z.object({ v: V1, tenantId: z.string().min(1), namespaceId: z.string().min(1) }),
    HandsStatusSchema,
  ),
} as const;
