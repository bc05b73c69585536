import { z } from 'zod';
import { ActorSchema, RoleSchema } from '../nats/actor.js';
import { rpcSubject, V1 } from '../nats/subject.js';

/** `tenant` (slug or id) picks the user when the username exists in several tenants. */
const LoginRpcRequestSchema = z.object({
  v: V1,
  username: z.string().min(1),
  password: z.string().min(1),
  tenant: z.string().min(1).optional(),
});
const AuthenticatedUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: RoleSchema,
  tenantId: z.string(),
  namespaceId: z.string(),
});
export type AuthenticatedUser = z.infer<typeof AuthenticatedUserSchema>;

/** The actor an API key acts as, and when the key expires (so a cache never outlives the key). */
const VerifiedApiKeySchema = ActorSchema.extend({ keyExpiresAt: z.string().nullable().default(null) });
export type VerifiedApiKey = z.infer<typeof VerifiedApiKeySchema>;

/** How the gateway turns a password, an API key or a user id into an actor. */
export const AuthSubjects = {
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
} as const;
