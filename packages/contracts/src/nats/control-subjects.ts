import { z } from 'zod';
import { ActorSchema, RoleSchema } from './actor.js';
import { rpcSubject, V1 } from './subject.js';
import { AgentSchema, CreateAgentRequestSchema, RetrieveAgentParamsSchema } from '../agents/agents.js';
import { CreateEnvironmentRequestSchema, EnvironmentSchema } from '../environments/environments.js';
import { CreateSessionRequestSchema, SessionSchema } from '../sessions/sessions.js';
import { ListParamsSchema } from '../common/common.js';

const Scoped = { v: V1, actor: ActorSchema };
const ById = { ...Scoped, id: z.string().min(1) };

/** A page of any resource as the control service returns it; the gateway renders the cursor. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    next_page: z.string().nullable(),
    prev_page: z.string().nullable().optional(),
  });
}

/** `tenant` (slug or id) picks the user when the username exists in several tenants. */
export const LoginRpcRequestSchema = z.object({
  v: V1,
  username: z.string().min(1),
  password: z.string().min(1),
  tenant: z.string().min(1).optional(),
});
export const AuthenticatedUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: RoleSchema,
  tenantId: z.string(),
  namespaceId: z.string(),
});
export type AuthenticatedUser = z.infer<typeof AuthenticatedUserSchema>;

/** The actor an API key acts as, and when the key expires (so a cache never outlives the key). */
export const VerifiedApiKeySchema = ActorSchema.extend({ keyExpiresAt: z.string().nullable().default(null) });
export type VerifiedApiKey = z.infer<typeof VerifiedApiKeySchema>;

export const ControlSubjects = {
  login: rpcSubject('control.auth.login', LoginRpcRequestSchema, AuthenticatedUserSchema),
  verifyApiKey: rpcSubject(
    'control.auth.verify_api_key',
    z.object({ v: V1, key: z.string().min(1) }),
    VerifiedApiKeySchema,
  ),
  userActor: rpcSubject(
    'control.auth.user_actor',
    z.object({ v: V1, userId: z.string().min(1) }),
    ActorSchema,
  ),

  createAgent: rpcSubject(
    'control.agent.create',
    z.object({ ...Scoped, body: CreateAgentRequestSchema }),
    AgentSchema,
  ),
  getAgent: rpcSubject(
    'control.agent.get',
    z.object({ ...ById, query: RetrieveAgentParamsSchema }),
    AgentSchema,
  ),
  listAgents: rpcSubject(
    'control.agent.list',
    z.object({ ...Scoped, query: ListParamsSchema }),
    pageOf(AgentSchema),
  ),

  createEnvironment: rpcSubject(
    'control.environment.create',
    z.object({ ...Scoped, body: CreateEnvironmentRequestSchema }),
    EnvironmentSchema,
  ),
  getEnvironment: rpcSubject('control.environment.get', z.object(ById), EnvironmentSchema),

  createSession: rpcSubject(
    'control.session.create',
    z.object({ ...Scoped, body: CreateSessionRequestSchema }),
    SessionSchema,
  ),
  getSession: rpcSubject('control.session.get', z.object(ById), SessionSchema),
} as const;
