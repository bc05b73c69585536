import { z } from 'zod';

/**
 * What a cluster worker says about itself every few seconds (Redis, with a TTL, so a dead worker drops
 * out on its own): the machine it has and the session sandboxes it holds.
 */
export const ClusterHandsHeartbeatSchema = z.object({
  workerId: z.string().min(1),
  /** Epoch milliseconds of this heartbeat. */
  at: z.number(),
  capacity: z.object({
    cpus: z.number().int().positive(),
    freeMemoryBytes: z.number().int().nonnegative(),
    loadAverage1m: z.number().nonnegative(),
  }),
  runningCalls: z.number().int().nonnegative(),
  liveSandboxes: z.array(z.object({ tenantId: z.string(), sessionId: z.string() })),
});
export type ClusterHandsHeartbeat = z.infer<typeof ClusterHandsHeartbeatSchema>;

/**
 * Redis keys (under the installation's prefix): a sorted set of worker ids by the expiry of their status, and
 * each worker's last status. Apart from the liveness set the Brain binds sessions by (`HandsRegistry`), whose
 * expiry is much shorter; the worker id is the same in both.
 */
export const HandsHeartbeatKeys = {
  index: 'hands:status',
  worker: (workerId: string) => `hands:worker:${workerId}`,
} as const;

/** One Hands worker as `/api/hands/status` shows it, cluster or self-hosted alike. */
export const HandsWorkerSchema = z.object({
  kind: z.enum(['cluster', 'self_hosted']),
  workerId: z.string(),
  /** Epoch milliseconds of its last heartbeat (cluster) or poll (self-hosted). */
  lastHeartbeatAt: z.number(),
  /** Self-hosted: the environment it serves. */
  environmentId: z.string().nullable(),
  /** Cluster: the machine it runs on; null for self-hosted workers (they do not report it). */
  capacity: ClusterHandsHeartbeatSchema.shape.capacity.nullable(),
  /** Cluster: tool calls running on it now, across every tenant. */
  runningCalls: z.number().int().nonnegative().nullable(),
  /** Cluster: the caller's sessions whose sandbox it holds. */
  liveSandboxes: z.array(z.string()).nullable(),
});
export type HandsWorker = z.infer<typeof HandsWorkerSchema>;
