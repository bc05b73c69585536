import { decodeTime, monotonicFactory } from 'ulid';
import { z } from 'zod';

/** Id prefix of every resource; the wire format is `<prefix><body>`. */
export const ID_PREFIXES = {
  agent: 'agent_',
  environment: 'env_',
  session: 'sesn_',
  sessionEvent: 'sevt_',
  sessionThread: 'sthr_',
  sessionResource: 'sesrsc_',
  checkpoint: 'ckpt_',
  vault: 'vlt_',
  vaultCredential: 'vcrd_',
  memoryStore: 'memstore_',
  memory: 'mem_',
  memoryVersion: 'memver_',
  dream: 'drm_',
  deployment: 'depl_',
  deploymentRun: 'drun_',
  multiagentRun: 'marun_',
  sessionReplay: 'rpl_',
  sessionReplayBatch: 'rplb_',
  workflowRun: 'wfrun_',
  work: 'work_',
  skill: 'skill_',
  skillVersion: 'skver_',
  file: 'file_',
  outcome: 'outc_',
  user: 'user_',
  tenant: 'tenant_',
  namespace: 'ns_',
  apiKey: 'key_',
  environmentKey: 'envkey_',
  webhook: 'wh_',
  webhookDelivery: 'whdel_',
  webhookDeliveryAttempt: 'whatt_',
  webhookEvent: 'wevt_',
  agentShare: 'share_',
  auditEntry: 'audit_',
  request: 'req_',
} as const;
type IdKind = keyof typeof ID_PREFIXES;
export type IdPrefix = (typeof ID_PREFIXES)[IdKind];

// One crypto call per 4096 random bytes: a call per character (the library's default source) dominates
// where ids are made on a hot path (session events).
let pool = new Uint8Array(0);
let poolOffset = 0;

function pooledRandom(): number {
  if (poolOffset >= pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(4096));
    poolOffset = 0;
  }
  return (pool[poolOffset++] ?? 0) / 256;
}

/** Ids made in the same millisecond (or with a clock that went back) stay ordered within one process. */
const nextUlid = monotonicFactory(pooledRandom);

/**
 * The one id generator: `newId('agent_')` → `agent_01J…`, a prefix and a 26-character ULID body (48 bits
 * of millisecond time, `now` or by default the wall clock, and 80 random bits); monotonic within one process.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return prefix + nextUlid(now);
}

/** The millisecond timestamp encoded in an id made by `newId`, or null when it has none. */
export function idTimestamp(id: string): number | null {
  const body = id.slice(id.indexOf('_') + 1);
  if (!/^[0-9A-HJKMNP-TV-Z]{26}$/.test(body)) return null;
  try {
    return decodeTime(body);
  } catch {
    return null;
  }
}

/** Whether `id` carries `prefix` followed by a plausible body (CMA ids use base62 bodies, ours base32). */
export function hasIdPrefix(id: string, prefix: IdPrefix): boolean {
  return id.startsWith(prefix) && /^[0-9A-Za-z]{1,64}$/.test(id.slice(prefix.length));
}

/** A zod schema for ids of one resource kind; the message names the expected prefix. */
function idSchema(prefix: IdPrefix) {
  return z
    .string()
    .refine((v) => hasIdPrefix(v, prefix), { message: `must be an id starting with "${prefix}"` });
}

export const AgentIdSchema = idSchema('agent_');
export const SessionIdSchema = idSchema('sesn_');
export const MemoryIdSchema = idSchema('mem_');
