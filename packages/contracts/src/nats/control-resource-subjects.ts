import { z } from 'zod';
import { ActorSchema } from './actor.js';
import { rpcSubject, V1 } from './subject.js';
import { AgentSchema, UpdateAgentRequestSchema } from '../agents/agents.js';
import {
  EnvironmentDeletedSchema,
  EnvironmentSchema,
  UpdateEnvironmentRequestSchema,
} from '../environments/environments.js';
import {
  ListSessionsParamsSchema,
  SessionDeletedSchema,
  SessionSchema,
  UpdateSessionRequestSchema,
} from '../sessions/sessions.js';
import { IsoDateTimeSchema, ListParamsSchema, pageSchema } from '../common/common.js';

const Scoped = { v: V1, actor: ActorSchema };
const ById = { ...Scoped, id: z.string().min(1) };

/** Create a key for an environment's self-hosted workers; `revoke_existing` makes it a rotation. */
export const CreateEnvironmentKeyRequestSchema = z.strictObject({ revoke_existing: z.boolean().optional() });
export type CreateEnvironmentKeyRequest = z.infer<typeof CreateEnvironmentKeyRequestSchema>;

/** An environment key as listed; `key` (the secret) is present only in the create reply. */
export const EnvironmentKeySchema = z.object({
  type: z.literal('environment_key'),
  id: z.string(),
  environment_id: z.string(),
  display: z.string(),
  key: z.string().optional(),
  created_at: IsoDateTimeSchema,
  last_used_at: IsoDateTimeSchema.nullable(),
  revoked_at: IsoDateTimeSchema.nullable(),
});
export type EnvironmentKey = z.infer<typeof EnvironmentKeySchema>;

/** Lifecycle subjects of the core resources (agents, environments, sessions) beyond create/get. */
export const ControlResourceSubjects = {
  updateAgent: rpcSubject(
    'control.agent.update',
    z.object({ ...ById, body: UpdateAgentRequestSchema }),
    AgentSchema,
  ),
  archiveAgent: rpcSubject('control.agent.archive', z.object(ById), AgentSchema),
  listAgentVersions: rpcSubject(
    'control.agent.versions',
    z.object({ ...ById, query: ListParamsSchema }),
    pageSchema(AgentSchema),
  ),

  updateEnvironment: rpcSubject(
    'control.environment.update',
    z.object({ ...ById, body: UpdateEnvironmentRequestSchema }),
    EnvironmentSchema,
  ),
  listEnvironments: rpcSubject(
    'control.environment.list',
    z.object({ ...Scoped, query: ListParamsSchema }),
    pageSchema(EnvironmentSchema),
  ),
  archiveEnvironment: rpcSubject('control.environment.archive', z.object(ById), EnvironmentSchema),
  deleteEnvironment: rpcSubject('control.environment.delete', z.object(ById), EnvironmentDeletedSchema),
  createEnvironmentKey: rpcSubject(
    'control.environment.key_create',
    z.object({ ...ById, body: CreateEnvironmentKeyRequestSchema }),
    EnvironmentKeySchema,
  ),
  listEnvironmentKeys: rpcSubject(
    'control.environment.key_list',
    z.object(ById),
    pageSchema(EnvironmentKeySchema),
  ),
  revokeEnvironmentKey: rpcSubject(
    'control.environment.key_revoke',
    z.object({ ...ById, keyId: z.string().min(1) }),
    EnvironmentKeySchema,
  ),

  listSessions: rpcSubject(
    'control.session.list',
    z.object({ ...Scoped, query: ListSessionsParamsSchema }),
    pageSchema(SessionSchema),
  ),
  updateSession: rpcSubject(
    'control.session.update',
    z.object({ ...ById, body: UpdateSessionRequestSchema }),
    SessionSchema,
  ),
  archiveSession: rpcSubject('control.session.archive', z.object(ById), SessionSchema),
  /** Agentry extension (AgentScope `restore`): un-archives a session so it accepts events again. */
  restoreSession: rpcSubject('control.session.restore', z.object(ById), SessionSchema),
  deleteSession: rpcSubject('control.session.delete', z.object(ById), SessionDeletedSchema),
} as const;
