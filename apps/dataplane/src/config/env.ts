import { BaseEnvSchema, loadConfig, ModelEnvSchema } from '@agentry/platform';
import { z } from 'zod';
import { jsonEnv } from './json-env.js';
import { PriceOverridesSchema, TenantQuotasSchema } from './budget-settings.js';

export const DataplaneEnvSchema = BaseEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8082),
  /** Turn lease: DESIGN caps the TTL at 10 s; it is renewed at a third of it while a turn runs. */
  AGENTRY_LEASE_TTL_MS: z.coerce.number().int().min(1_000).max(10_000).default(10_000),
  /**
   * How often a replica looks for leases that expired under a holder that stopped renewing them (a
   * crashed replica) and takes their turns over; a takeover starts within the TTL plus this.
   */
  /** How often a replica renews its liveness row, and how long one renewal lasts (see ReplicaLiveness). */
  AGENTRY_REPLICA_BEAT_MS: z.coerce.number().int().min(50).max(10_000).default(400),
  AGENTRY_REPLICA_ALIVE_MS: z.coerce.number().int().min(200).max(60_000).default(2_000),
  AGENTRY_TAKEOVER_SCAN_MS: z.coerce.number().int().min(50).max(60_000).default(500),
  /** Sessions one replica drains at once; a turn mostly waits on I/O, so this is well above the core count. */
  AGENTRY_DRAIN_CONCURRENCY: z.coerce.number().int().min(1).max(4096).default(512),
  /**
   * Postgres connections of the hot-path pool (event log, session state, shared workspace). A few per
   * Postgres core: more only queue inside Postgres and slow every statement, a turn's start included.
   */
  AGENTRY_SQL_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(6),
  /**
   * Postgres connections reserved for a turn's start and hand-over (the lease with the inbox, the running
   * status, the release and the inbox after it), so committed input starts its turn promptly while
   * running turns fill the other pool.
   */
  AGENTRY_SQL_PICKUP_POOL_SIZE: z.coerce.number().int().min(1).max(50).default(10),
  /** Sessions whose event log a replica keeps in memory, so a turn reads only what is new. */
  AGENTRY_LOG_CACHE_SESSIONS: z.coerce.number().int().min(0).max(100_000).default(512),
  AGENTRY_TOOL_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  /** How long a session stays bound to its Hands worker without a tool call (each call renews it). */
  AGENTRY_HANDS_BINDING_LEASE_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(60 * 60_000),
  /**
   * How long a tool call waits for a live Hands worker when none is registered or Redis cannot be reached
   * (a Redis restart empties the live-worker set until the next heartbeats), before it fails saying so.
   */
  AGENTRY_HANDS_WORKER_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** Checkpoints (turn boundaries) kept per session, the newest; older ones are dropped as turns close. */
  AGENTRY_CHECKPOINTS_KEPT: z.coerce.number().int().min(1).max(100_000).default(100),
  /** Token previews of a turn are gathered this long and sent as one NATS message (`event_deltas[]`). */
  AGENTRY_DELTA_FLUSH_MS: z.coerce.number().int().min(1).max(1_000).default(50),
  AGENTRY_MAX_ITERS: z.coerce.number().int().min(1).max(500).default(50),
  /** Self-hosted work items: lease TTL a claim or heartbeat grants unless the worker asks for another. */
  AGENTRY_WORK_LEASE_TTL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** A claimed but unacknowledged item may be claimed again after this long (CMA's default: 5 s). */
  AGENTRY_WORK_RECLAIM_UNACKED_MS: z.coerce.number().int().min(0).default(5_000),
  /**
   * Let server-side fetches (`web_fetch`) reach loopback, private, link-local and metadata addresses.
   * Off by default; turn on only where agents must read services on the installation's own network.
   */
  AGENTRY_EGRESS_ALLOW_PRIVATE_NETWORKS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /**
   * Retries of a model call that failed with a retryable error (429, 5xx, overload), each shown as a
   * `session.error` with retry status `retrying`; the wait starts at the backoff and doubles, and a
   * provider's `retry-after` is honoured when it is no longer than the longest wait.
   */
  AGENTRY_MODEL_RETRIES: z.coerce.number().int().min(0).max(20).default(3),
  AGENTRY_MODEL_RETRY_BACKOFF_MS: z.coerce.number().int().min(0).max(600_000).default(500),
  AGENTRY_MODEL_RETRY_MAX_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(60_000),
  /**
   * The search API behind `web_search`, called as `GET {url}?q=…&format=json&count=N` (SearXNG and
   * Brave-shaped answers are read). Unset: `web_search` answers that no provider is configured.
   */
  AGENTRY_WEB_SEARCH_URL: z.string().url().optional(),
  AGENTRY_WEB_SEARCH_API_KEY: z.string().optional(),
  /** A session's connections to its agent's MCP servers close once no turn or call has used them for this long. */
  AGENTRY_MCP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(300_000),
  /** How often pooled MCP connections are checked for sessions that ended (archived, deleted, terminated). */
  AGENTRY_MCP_ENDED_CHECK_MS: z.coerce.number().int().min(100).default(15_000),
  /** Connecting to an MCP server and listing its tools, per attempt. */
  AGENTRY_MCP_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** One MCP tool call; a server slower than this gives the model a tool error. */
  AGENTRY_MCP_CALL_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  /** Model list prices (USD per million tokens) over the built-in table, e.g. `{"scripted":{"input":1,"output":5}}`. */
  AGENTRY_MODEL_PRICES: jsonEnv(PriceOverridesSchema, {}),
  /**
   * Output tokens a model call reserves against budgets and quotas when the request sets no `max_tokens`;
   * under a budget or quota it is also sent as the call's `max_tokens`.
   */
  AGENTRY_BUDGET_OUTPUT_RESERVE_TOKENS: z.coerce.number().int().min(1).default(8_192),
  /** Per-tenant token and list-cost quotas per UTC day and month, keyed by tenant id or slug (`*` for every tenant). */
  AGENTRY_TENANT_QUOTAS: jsonEnv(TenantQuotasSchema, {}),
}).extend(ModelEnvSchema.shape);
export type DataplaneEnv = z.infer<typeof DataplaneEnvSchema>;

export const loadDataplaneEnv = (): DataplaneEnv => loadConfig(DataplaneEnvSchema);
export const DATAPLANE_CONFIG = Symbol('DATAPLANE_CONFIG');
