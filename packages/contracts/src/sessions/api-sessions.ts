import { z } from 'zod';
import type { SessionResourceParams } from './session-resources.js';
import type {
  CreateSessionRequest,
  ListSessionsParams,
  Session,
  SessionAgentParams,
  SessionStatus,
  SessionUsage,
} from './sessions.js';

/** AgentScope-style (camelCase) session shapes served on `/api/sessions`. */

const ApiSessionAgentRefSchema = z.union([
  z.string().min(1),
  z.object({
    id: z.string().min(1),
    version: z.number().int().min(1).nullish(),
    type: z.string().optional(),
  }),
]);

/** Overrides CMA can apply per session; AgentScope's other keys are rejected by name. */
const ApiAgentOverridesSchema = z.strictObject({
  system: z.string().max(100_000).nullish(),
  model: z.string().min(1).nullish(),
});

export const ApiCreateSessionRequestSchema = z.object({
  agent: ApiSessionAgentRefSchema,
  environmentId: z.string().min(1, 'environmentId required'),
  title: z.string().max(256).nullish(),
  vaultIds: z.array(z.string().min(1)).max(20).optional(),
  memoryStoreIds: z.array(z.string().min(1)).max(20).optional(),
  /** `/v1`-shaped resources, passed through. */
  resources: z.array(z.record(z.string(), z.unknown())).optional(),
  agentOverrides: ApiAgentOverridesSchema.nullish(),
  metadata: z.record(z.string(), z.string()).optional(),
});
export type ApiCreateSessionRequest = z.infer<typeof ApiCreateSessionRequestSchema>;

export const ApiListSessionsParamsSchema = z.object({
  agentId: z.string().optional(),
  status: z.enum(['active', 'archived', 'all']).default('active'),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  page: z.string().optional(),
});
export type ApiListSessionsParams = z.infer<typeof ApiListSessionsParamsSchema>;

export const ApiSessionSchema = z.object({
  id: z.string(),
  agentId: z.string(),
  agentVersion: z.number().int(),
  environmentId: z.string(),
  title: z.string().nullable(),
  /** The CMA status, or `archived` once archived. */
  status: z.enum(['rescheduling', 'running', 'idle', 'terminated', 'archived']),
  stopReason: z.string().nullable(),
  vaultIds: z.array(z.string()),
  memoryStoreIds: z.array(z.string()),
  metadata: z.record(z.string(), z.string()),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }),
  createdAt: z.string(),
  updatedAt: z.string(),
  archivedAt: z.string().nullable(),
});
export type ApiSession = z.infer<typeof ApiSessionSchema>;

/** Maps an `/api` create body to `/v1`; validate the result with `CreateSessionRequestSchema`. */
export function apiSessionToV1(req: ApiCreateSessionRequest): CreateSessionRequest {
  const ref = typeof req.agent === 'string' ? { id: req.agent, version: undefined } : req.agent;
  const overrides = req.agentOverrides;
  let agent: SessionAgentParams;
  if (overrides && (overrides.system !== undefined || overrides.model)) {
    agent = { type: 'agent_with_overrides', id: ref.id };
    if (ref.version) agent.version = ref.version;
    if (overrides.system !== undefined) agent.system = overrides.system;
    if (overrides.model) agent.model = overrides.model;
  } else if (ref.version) {
    agent = { type: 'agent', id: ref.id, version: ref.version };
  } else {
    agent = ref.id;
  }
  const resources = [
    ...((req.resources ?? []) as SessionResourceParams[]),
    ...(req.memoryStoreIds ?? []).map((id): SessionResourceParams => ({
      type: 'memory_store',
      memory_store_id: id,
    })),
  ];
  const out: CreateSessionRequest = { agent, environment_id: req.environmentId };
  if (req.title !== undefined) out.title = req.title;
  if (req.vaultIds) out.vault_ids = req.vaultIds;
  if (resources.length > 0) out.resources = resources;
  if (req.metadata) out.metadata = req.metadata;
  return out;
}

export function apiListSessionsToV1(params: ApiListSessionsParams): Partial<ListSessionsParams> {
  const out: Partial<ListSessionsParams> = { include_archived: params.status !== 'active' };
  if (params.agentId) out.agent_id = params.agentId;
  if (params.limit) out.limit = params.limit;
  if (params.page) out.page = params.page;
  return out;
}

function apiStatus(session: Session): SessionStatus | 'archived' {
  return session.archived_at ? 'archived' : session.status;
}

function usageOut(usage: SessionUsage) {
  return { inputTokens: usage.input_tokens ?? 0, outputTokens: usage.output_tokens ?? 0 };
}

export function v1SessionToApi(session: Session): ApiSession {
  return {
    id: session.id,
    agentId: session.agent.id,
    agentVersion: session.agent.version,
    environmentId: session.environment_id,
    title: session.title,
    status: apiStatus(session),
    stopReason: session.stop_reason?.type ?? null,
    vaultIds: session.vault_ids,
    memoryStoreIds: session.resources.flatMap((r) => (r.type === 'memory_store' ? [r.memory_store_id] : [])),
    metadata: session.metadata,
    usage: usageOut(session.usage),
    createdAt: session.created_at,
    updatedAt: session.updated_at,
    archivedAt: session.archived_at,
  };
}
