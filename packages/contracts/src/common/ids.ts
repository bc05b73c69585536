import { z } from 'zod';

/** Id prefix of every resource; the wire format is `<prefix><body>`. */
export const ID_PREFIXES = {
  agent: 'agent_',
  environment: 'env_',
  session: 'sesn_',
  sessionEvent: 'sevt_',
  sessionThread: 'sthr_',
  sessionResource: 'sesrsc_',
  vault: 'vlt_',
  vaultCredential: 'vcrd_',
  memoryStore: 'memstore_',
  memory: 'mem_',
  memoryVersion: 'memver_',
  deployment: 'depl_',
  deploymentRun: 'drun_',
  multiagentRun: 'marun_',
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
  agentShare: 'share_',
  auditEntry: 'audit_',
  request: 'req_',
} as const;
export type IdKind = keyof typeof ID_PREFIXES;
export type IdPrefix = (typeof ID_PREFIXES)[IdKind];

// Crockford base32: sortable as plain strings, no ambiguous letters.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;

let lastTime = -1;
let lastRandom: number[] = [];

// One crypto call per 256 ids: a call per id dominates where ids are made on a hot path (session events).
let pool = new Uint8Array(0);
let poolOffset = 0;

function randomDigits(): number[] {
  if (poolOffset + RANDOM_CHARS > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(4096));
    poolOffset = 0;
  }
  const digits = Array.from(pool.subarray(poolOffset, poolOffset + RANDOM_CHARS), (b) => b & 31);
  poolOffset += RANDOM_CHARS;
  return digits;
}

/** Adds one to the base-32 digit array; ids made in the same millisecond stay ordered. */
function increment(digits: number[]): number[] {
  const next = digits.slice();
  for (let i = next.length - 1; i >= 0; i--) {
    const d = (next[i] ?? 0) + 1;
    if (d < 32) {
      next[i] = d;
      return next;
    }
    next[i] = 0;
  }
  return randomDigits();
}

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < TIME_CHARS; i++) {
    out = ALPHABET.charAt(rest % 32) + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** A 26-character, time-sortable (ULID-like) id body; monotonic within one process. */
function newIdBody(now: number): string {
  if (now <= lastTime) {
    lastRandom = increment(lastRandom);
  } else {
    lastTime = now;
    lastRandom = randomDigits();
  }
  return encodeTime(lastTime) + lastRandom.map((d) => ALPHABET.charAt(d)).join('');
}

/**
 * The one id generator: `newId('agent_')` → `agent_01J…`, a prefix and a 26-character body of 48 bits
 * of millisecond time (`now`, by default the wall clock) and 80 random bits; monotonic within one process.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return prefix + newIdBody(now);
}

/** The millisecond timestamp encoded in an id made by `newId`, or null when it has none. */
export function idTimestamp(id: string): number | null {
  const body = id.slice(id.indexOf('_') + 1);
  if (body.length !== TIME_CHARS + RANDOM_CHARS) return null;
  let ms = 0;
  for (const ch of body.slice(0, TIME_CHARS)) {
    const d = ALPHABET.indexOf(ch);
    if (d < 0) return null;
    ms = ms * 32 + d;
  }
  return ms;
}

/** Whether `id` carries `prefix` followed by a plausible body (CMA ids use base62 bodies, ours base32). */
export function hasIdPrefix(id: string, prefix: IdPrefix): boolean {
  return id.startsWith(prefix) && /^[0-9A-Za-z]{1,64}$/.test(id.slice(prefix.length));
}

/** A zod schema for ids of one resource kind; the message names the expected prefix. */
export function idSchema(prefix: IdPrefix) {
  return z
    .string()
    .refine((v) => hasIdPrefix(v, prefix), { message: `must be an id starting with "${prefix}"` });
}

export const AgentIdSchema = idSchema('agent_');
export const EnvironmentIdSchema = idSchema('env_');
export const SessionIdSchema = idSchema('sesn_');
export const SessionEventIdSchema = idSchema('sevt_');
export const SessionThreadIdSchema = idSchema('sthr_');
export const SessionResourceIdSchema = idSchema('sesrsc_');
export const VaultIdSchema = idSchema('vlt_');
export const VaultCredentialIdSchema = idSchema('vcrd_');
export const MemoryStoreIdSchema = idSchema('memstore_');
export const MemoryIdSchema = idSchema('mem_');
export const MemoryVersionIdSchema = idSchema('memver_');
export const DeploymentIdSchema = idSchema('depl_');
export const DeploymentRunIdSchema = idSchema('drun_');
export const WorkIdSchema = idSchema('work_');
export const SkillIdSchema = idSchema('skill_');
export const SkillVersionIdSchema = idSchema('skver_');
export const FileIdSchema = idSchema('file_');
export const OutcomeIdSchema = idSchema('outc_');
export const UserIdSchema = idSchema('user_');
export const TenantIdSchema = idSchema('tenant_');
export const NamespaceIdSchema = idSchema('ns_');
export const ApiKeyIdSchema = idSchema('key_');
export const EnvironmentKeyIdSchema = idSchema('envkey_');
export const WebhookIdSchema = idSchema('wh_');
