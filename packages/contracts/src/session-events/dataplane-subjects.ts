import { z } from 'zod';
import { ActorSchema } from '../nats/actor.js';
import { rpcSubject, V1 } from '../nats/subject.js';
import { InboundEventSchema } from './inbound-events.js';
import { SessionEventSchema } from './session-event.js';
import { SessionErrorObjectSchema } from './session-error.js';
import { SessionMountSchema } from '../sessions/session-mounts.js';

/** A committed event with its per-session position; `seq` is the SSE id and the paging cursor. */
export const StoredEventSchema = z.object({ seq: z.number().int().positive(), event: SessionEventSchema });
export type StoredEvent = z.infer<typeof StoredEventSchema>;

/** How long an append's `Idempotency-Key` is honoured, at the gateway and in the event log alike. */
export const IDEMPOTENCY_KEY_RETENTION_MS = 24 * 3600 * 1000;

const Sha256HexSchema = z.string().regex(/^[0-9a-f]{64}$/, 'must be a hex SHA-256');

/**
 * The client's `Idempotency-Key` of an append, as hashes: the key (unique per session in the log) and
 * the request it was first used for. A retry whose first attempt committed gets those events back.
 */
const AppendIdempotencySchema = z.object({ keyHash: Sha256HexSchema, requestHash: Sha256HexSchema });
export type AppendIdempotency = z.infer<typeof AppendIdempotencySchema>;

const AppendEventsRpcRequestSchema = z.object({
  v: V1,
  actor: ActorSchema,
  sessionId: z.string().min(1),
  events: z.array(InboundEventSchema).min(1).max(50),
  idempotency: AppendIdempotencySchema.optional(),
});

const ListEventsRpcRequestSchema = z.object({
  v: V1,
  actor: ActorSchema,
  sessionId: z.string().min(1),
  /** Only events with seq greater than this. */
  afterSeq: z.number().int().nonnegative().default(0),
  /** Only events with seq smaller than this (backwards paging). */
  beforeSeq: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(1000).default(100),
  order: z.enum(['asc', 'desc']).default('asc'),
  types: z.array(z.string()).optional(),
});
export type ListEventsRpcRequest = z.infer<typeof ListEventsRpcRequestSchema>;

const EventPageSchema = z.object({ data: z.array(StoredEventSchema), hasMore: z.boolean() });
export type EventPage = z.infer<typeof EventPageSchema>;

export const DataplaneSubjects = {
  appendEvents: rpcSubject(
    'dataplane.events.append',
    AppendEventsRpcRequestSchema,
    // `replayed`: the idempotency key had already committed these events; nothing was appended now.
    z.object({ data: z.array(StoredEventSchema), replayed: z.boolean().optional() }),
  ),
  listEvents: rpcSubject('dataplane.events.list', ListEventsRpcRequestSchema, EventPageSchema, undefined, {
    idempotent: true,
  }),
} as const;

/**
 * Where a session's sandbox may connect: `unrestricted` (any public host) or `limited` to the listed
 * hosts (`host` or `host:port`, `*.` for subdomains). Private, loopback and metadata addresses are never
 * reachable, whatever the mode.
 */
const SandboxNetworkingSchema = z.object({
  type: z.enum(['unrestricted', 'limited']),
  allowedHosts: z.array(z.string().min(1)).default([]),
});
export type SandboxNetworking = z.infer<typeof SandboxNetworkingSchema>;

/**
 * The environment's choice of sandbox provider (its `sandbox` config); absent, the worker's installation-wide
 * default decides. `apiUrl` / `domain` point at a self-hosted E2B.
 */
const SandboxProviderChoiceSchema = z.object({
  provider: z.enum(['bubblewrap', 'e2b']),
  template: z.string().min(1).optional(),
  apiUrl: z.string().url().optional(),
  domain: z.string().min(1).optional(),
});
export type SandboxProviderChoice = z.infer<typeof SandboxProviderChoiceSchema>;

/** A tool call sent to the Hands (cluster worker pool), answered with its outcome. */
const HandsExecRequestSchema = z.object({
  v: V1,
  tenantId: z.string().min(1),
  sessionId: z.string().min(1),
  environmentId: z.string().min(1),
  environmentType: z.enum(['local', 'sandbox']),
  toolUseId: z.string().min(1),
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
  timeoutMs: z.number().int().positive().default(120_000),
  networking: SandboxNetworkingSchema.default({ type: 'unrestricted', allowedHosts: [] }),
  sandbox: SandboxProviderChoiceSchema.optional(),
  /**
   * Which binding of the session to a worker this call belongs to (see `HandsRegistry`). A worker that
   * sees a new epoch restores the session's workspace from its durable copy before running the call.
   */
  bindingEpoch: z.number().int().nonnegative().optional(),
  /** The Brain-owned trees the call sees under /mnt, read-only (see session-mounts). */
  mounts: z.array(SessionMountSchema).max(64).default([]),
  /**
   * False when the session lists no vaults, as its turn read it: a command then runs without credentials and
   * control is not asked for them. Absent, the worker asks (it cannot tell).
   */
  vaults: z.boolean().optional(),
});
export type HandsExecRequest = z.infer<typeof HandsExecRequestSchema>;

/**
 * Opens a session's sandbox on the worker it is bound to ahead of the turn's first tool call, while the
 * model is asked: the turn never waits for it, and the first call finds it ready (or being made).
 */
export const HandsPrepareSchema = HandsExecRequestSchema.pick({
  v: true,
  tenantId: true,
  sessionId: true,
  environmentId: true,
  environmentType: true,
  networking: true,
  sandbox: true,
  bindingEpoch: true,
});
export type HandsPrepare = z.infer<typeof HandsPrepareSchema>;

export const HandsExecResultSchema = z.object({
  toolUseId: z.string(),
  isError: z.boolean(),
  content: z.array(z.object({ type: z.literal('text'), text: z.string() })),
  /** Machine-readable cause when isError (e.g. `path_escape`, `not_found`, `unknown_tool`). */
  reason: z.string().optional(),
  /** What went wrong preparing the session's resources (a repository that could not be cloned), for `session.error` events. */
  sessionErrors: z.array(SessionErrorObjectSchema).optional(),
});
export type HandsExecResult = z.infer<typeof HandsExecResultSchema>;

/** Where a worker records a call's result in Redis: a repeat of the call, or a caller whose reply was lost, reads it there. */
export function handsResultKey(toolUseId: string): string {
  return `hands:result:${toolUseId}`;
}

/**
 * Which worker took a call: set (if not set yet) by the worker before the call runs, for as long as it may run.
 * A turn that takes over a session whose call was cut off sends it again while that worker is alive, and a
 * copy that reaches any other worker is refused there, so the call runs at most once.
 */
export function handsCallKey(toolUseId: string): string {
  return `hands:call:${toolUseId}`;
}

/** Tools that change nothing: a call cut off on a worker that died runs again on another. */
export const READ_ONLY_HANDS_TOOLS: ReadonlySet<string> = new Set(['read', 'glob', 'grep']);

/**
 * Stops a tool call the Hands are running (the turn was interrupted, lost its lease or gave up
 * waiting). Published to every worker (no queue group): the one running the call aborts it.
 */
export const HandsCancelSchema = z.object({
  v: V1,
  sessionId: z.string().min(1),
  toolUseId: z.string().min(1),
  reason: z.enum(['interrupted', 'lease_lost', 'timeout']),
  /**
   * Only this worker acts on the cancel: the one a call was sent to when it was found dead. Any other
   * worker may be about to run the call sent again, and must not refuse it.
   */
  workerId: z.string().min(1).optional(),
});
export type HandsCancel = z.infer<typeof HandsCancelSchema>;

/**
 * A stdio MCP server of a session, run in the session's sandbox on the worker holding it. The Brain picks
 * a fresh `channelId` per connection and listens on `HandsSubjects.mcpOutput(channelId)` before it opens;
 * `open` starts the server, each `send` writes one JSON-RPC message to its stdin, `close` ends it.
 */
const HandsMcpTarget = {
  v: V1,
  tenantId: z.string().min(1),
  sessionId: z.string().min(1),
  channelId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
};
const HandsMcpRequestSchema = z.discriminatedUnion('op', [
  z.object({
    ...HandsMcpTarget,
    op: z.literal('open'),
    /** The server's name in tools.json, for logs and messages. */
    server: z.string().min(1).max(128),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    networking: SandboxNetworkingSchema.default({ type: 'unrestricted', allowedHosts: [] }),
    /** As for tool calls: a worker that sees a new epoch restores the session's workspace first. */
    bindingEpoch: z.number().int().nonnegative().optional(),
  }),
  z.object({ ...HandsMcpTarget, op: z.literal('send'), message: z.record(z.string(), z.unknown()) }),
  z.object({ ...HandsMcpTarget, op: z.literal('close') }),
]);
export type HandsMcpRequest = z.infer<typeof HandsMcpRequestSchema>;
const HandsMcpReplySchema = z.object({ ok: z.literal(true) });

/** What a running server wrote (one JSON-RPC message), or that it is gone, published per channel. */
export const HandsMcpOutputSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message'), message: z.unknown() }),
  z.object({ type: z.literal('exit'), reason: z.string() }),
]);
export type HandsMcpOutput = z.infer<typeof HandsMcpOutputSchema>;

/**
 * A session is gone (deleted): every worker hears it (no queue group) and drops what it keeps for the
 * session elsewhere, such as its E2B sandbox, which is killed.
 */
export const HandsSessionEndedSchema = z.object({
  v: V1,
  tenantId: z.string().min(1),
  sessionId: z.string().min(1),
});
export type HandsSessionEnded = z.infer<typeof HandsSessionEndedSchema>;

export const HandsSubjects = {
  sessionEnded: 'hands.session.ended',
  // A tool call is built by the Brain's own code: the worker's check is the one it needs.
  exec: rpcSubject('hands.exec.default', HandsExecRequestSchema, HandsExecResultSchema, undefined, {
    checkedAtHandler: true,
  }),
  /** One worker's own subject: the calls of the sessions bound to it. */
  execOn: (workerId: string) =>
    rpcSubject(
      `hands.exec.worker.${workerId}`,
      HandsExecRequestSchema,
      HandsExecResultSchema,
      'hands.exec.worker',
      { checkedAtHandler: true },
    ),
  /** The stdio MCP servers of the sessions bound to one worker: see `HandsMcpRequestSchema`. */
  mcpOn: (workerId: string) =>
    rpcSubject(
      `hands.mcp.worker.${workerId}`,
      HandsMcpRequestSchema,
      HandsMcpReplySchema,
      'hands.mcp.worker',
    ),
  /** Pub/sub: what one MCP server channel writes, see `HandsMcpOutputSchema`. */
  mcpOutput: (channelId: string) => `hands.mcp.out.${channelId}`,
  /** Pub/sub, not request/reply: see `HandsCancelSchema`. */
  cancel: 'hands.cancel.default',
  /** Pub/sub to one worker: see `HandsPrepareSchema`. */
  prepareOn: (workerId: string) => `hands.prepare.worker.${workerId}`,
} as const;

/**
 * Where a session's durable Hands copy lives in `hands_workspace_files`: its workspace, and the shell's
 * carried-over state (cwd, exported variables) under a root of its own.
 */
export function handsDurableRoots(
  tenantId: string,
  sessionId: string,
): { workspace: string; shellState: string } {
  const workspace = `tenants/${tenantId}/hands/sessions/${sessionId}`;
  return { workspace, shellState: `${workspace}#shell` };
}

/**
 * Redis keys the Hands and the Brain share. Live workers are a sorted set scored by the time (ms) their
 * last heartbeat stays valid until; a session's binding is a hash { workerId, epoch } with a lease (TTL)
 * renewed by every call, its epoch increasing each time the session moves to another worker.
 * `takesCopies` is set by each heartbeat of a worker that runs a call once however many copies of its
 * request arrive: the Brain sends copies of a waiting call only to such a worker (an older release ran each).
 */
export const HandsRegistry = {
  workers: 'hands:workers',
  binding: (tenantId: string, sessionId: string) => `hands:binding:${tenantId}:${sessionId}`,
  takesCopies: (workerId: string) => `hands:worker:${workerId}:takes-copies`,
} as const;
