import { z } from 'zod';
import { ActorSchema, RoleSchema } from '../nats/actor.js';
import { rpcSubject, V1 } from '../nats/subject.js';
import { Scoped } from '../nats/request-fields.js';
import { entitySubjects } from '../nats/entity-subjects.js';
import { pageSchema } from '../common/paging.js';

/** Query of the `/api` admin lists: an opaque cursor and a page size. */
export const AccessListQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1, 'limit: must be at least 1')
    .max(100, 'limit: at most 100')
    .default(20),
  page: z.string().min(1).nullish(),
});
export type AccessListQuery = z.infer<typeof AccessListQuerySchema>;

const ApiKeyPermissionSchema = z.enum(['read', 'write']);
export type ApiKeyPermission = z.infer<typeof ApiKeyPermissionSchema>;

// ---- users (AgentScope camelCase, `/api/admin/users`) ----

export const ManagedUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  role: RoleSchema,
  disabled: z.boolean(),
  createdAt: z.string(),
});
export type ManagedUser = z.infer<typeof ManagedUserSchema>;

/** Usernames are unique within a tenant; the same name may exist in other tenants. */
export const UsernameSchema = z
  .string()
  .min(1, 'username is required')
  .max(128)
  .regex(/^[A-Za-z0-9._@-]+$/, 'username may contain letters, digits and . _ @ - only');

export const NewPasswordSchema = z.string().min(8, 'password must be at least 8 characters').max(1024);

export const CreateUserRequestSchema = z.strictObject({
  username: UsernameSchema,
  password: NewPasswordSchema,
  role: RoleSchema.default('member'),
  email: z.email('email is not an e-mail address').max(256).nullish(),
  displayName: z.string().max(256).nullish(),
  /** The namespace the user joins (a viewer as viewer, anyone else as member); default: the creator's current one. */
  namespaceId: z.string().min(1, 'namespaceId: send a namespace id').max(128).optional(),
});
export type CreateUserRequest = z.infer<typeof CreateUserRequestSchema>;

export const UpdateUserRequestSchema = z
  .strictObject({
    role: RoleSchema.optional(),
    disabled: z.boolean().optional(),
    displayName: z.string().max(256).nullish(),
  })
  .refine((b) => Object.keys(b).length > 0, 'body: nothing to update (send role, disabled or displayName)');
export type UpdateUserRequest = z.infer<typeof UpdateUserRequestSchema>;

export const ChangePasswordRequestSchema = z.strictObject({
  currentPassword: z.string().min(1, 'currentPassword is required').max(1024),
  newPassword: z.string().min(8, 'newPassword must be at least 8 characters').max(1024),
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;

// ---- API keys (`/api/keys`) ----

const ApiKeyInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  namespaceId: z.string(),
  userId: z.string().nullable(),
  permissions: z.array(ApiKeyPermissionSchema),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKeyInfo = z.infer<typeof ApiKeyInfoSchema>;

/** The creation reply is the only place the secret ever appears. */
const CreatedApiKeySchema = ApiKeyInfoSchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;

export const CreateApiKeyRequestSchema = z.strictObject({
  name: z.string().min(1, 'name is required').max(128),
  permissions: z
    .array(ApiKeyPermissionSchema)
    .min(1, 'permissions: name read and/or write')
    .default(['read']),
  expiresAt: z.iso.datetime({ message: 'expiresAt: not an ISO 8601 date-time', offset: true }).nullish(),
});
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequestSchema>;

// ---- namespaces ----

/** `role` is the caller's effective role in the namespace. */
export const NamespaceInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  role: RoleSchema,
  createdAt: z.string(),
});
export type NamespaceInfo = z.infer<typeof NamespaceInfoSchema>;

/** URL-safe short name of a namespace or tenant. */
export const SlugSchema = z
  .string()
  .min(1, 'slug is required')
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'slug may contain lower-case letters, digits and - only');

export const CreateNamespaceRequestSchema = z.strictObject({
  name: z.string().min(1, 'name is required').max(128),
  slug: SlugSchema,
});
export type CreateNamespaceRequest = z.infer<typeof CreateNamespaceRequestSchema>;

// ---- audit log ----

const AuditEntrySchema = z.object({
  id: z.string(),
  actorType: z.string(),
  actorId: z.string().nullable(),
  namespaceId: z.string().nullable(),
  action: z.string(),
  resourceType: z.string(),
  resourceId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditListQuerySchema = AccessListQuerySchema.extend({
  resourceType: z.string().min(1).max(64).optional(),
  resourceId: z.string().min(1).max(128).optional(),
});
export type AuditListQuery = z.infer<typeof AuditListQuerySchema>;

// ---- agent shares ----

const AgentSharePermissionSchema = z.enum(['run', 'edit']);
export type AgentSharePermission = z.infer<typeof AgentSharePermissionSchema>;

/** The seed's `{granteeType, granteeId, tier}`; only user grantees exist here. */
const AgentShareSchema = z.object({
  agentId: z.string(),
  granteeType: z.literal('user'),
  granteeId: z.string(),
  tier: z.enum(['RUN', 'EDIT']),
  createdAt: z.string(),
});
export type AgentShare = z.infer<typeof AgentShareSchema>;

export const ShareAgentRequestSchema = z.strictObject({
  granteeType: z.literal('user', { error: 'granteeType: only "user" is supported' }).default('user'),
  granteeId: z.string().min(1, 'granteeId is required'),
  tier: z.enum(['RUN', 'EDIT'], { error: 'tier: must be RUN or EDIT' }).default('RUN'),
});
export type ShareAgentRequest = z.infer<typeof ShareAgentRequestSchema>;

const user = entitySubjects('control.access.user', ManagedUserSchema);
const namespace = entitySubjects('control.access.namespace', NamespaceInfoSchema);
const apiKey = entitySubjects('control.access.api_key', ApiKeyInfoSchema);
const agentShare = entitySubjects('control.access.agent_share', AgentShareSchema);

export const AccessSubjects = {
  /** The actor of a user token, re-read on every request: disabled users and role changes apply at once. */
  resolveUser: rpcSubject(
    'control.access.resolve_user',
    z.object({ v: V1, userId: z.string().min(1), namespaceId: z.string().min(1).nullish() }),
    ActorSchema,
  ),
  changePassword: rpcSubject(
    'control.access.change_password',
    z.object({ ...Scoped, body: ChangePasswordRequestSchema }),
    z.object({ ok: z.literal(true) }),
  ),

  listUsers: user.list(AccessListQuerySchema),
  createUser: user.create(CreateUserRequestSchema),
  updateUser: user.update(UpdateUserRequestSchema),

  listNamespaces: rpcSubject(
    'control.access.namespace.list',
    z.object(Scoped),
    z.object({ data: z.array(NamespaceInfoSchema) }),
  ),
  createNamespace: namespace.create(CreateNamespaceRequestSchema),

  createApiKey: apiKey.onScope('create', CreatedApiKeySchema, { body: CreateApiKeyRequestSchema }),
  listApiKeys: apiKey.list(AccessListQuerySchema),
  revokeApiKey: apiKey.onItem('revoke'),

  listAuditLog: rpcSubject(
    'control.access.audit.list',
    z.object({ ...Scoped, query: AuditListQuerySchema }),
    pageSchema(AuditEntrySchema),
  ),

  shareAgent: agentShare.onItem('create', AgentShareSchema, { body: ShareAgentRequestSchema }),
  unshareAgent: agentShare.onItem('delete', z.object({ deleted: z.boolean() }), {
    granteeId: z.string().min(1),
  }),
  listAgentShares: agentShare.onItem('list', z.object({ data: z.array(AgentShareSchema) })),
  /** For other services: may this actor run (or edit) the agent? Owners' namespace members always may. */
  checkAgentAccess: agentShare.onItem(
    'check',
    z.object({ allowed: z.boolean(), via: z.enum(['namespace', 'share', 'none']) }),
    { permission: AgentSharePermissionSchema },
  ),
} as const;
