import { z } from 'zod';
import { RoleSchema } from '../nats/actor.js';
import { entitySubjects } from '../nats/entity-subjects.js';
import { Scoped } from '../nats/request-fields.js';
import {
  AccessListQuerySchema,
  ManagedUserSchema,
  NamespaceInfoSchema,
  NewPasswordSchema,
  SlugSchema,
  UsernameSchema,
} from './access-subjects.js';

// ---- namespace membership (`/api/admin/namespaces/{id}/members`) ----

/** A role inside one namespace. Tenant administrators are administrators of every namespace without one. */
const NamespaceRoleSchema = z.enum(['member', 'viewer'], {
  error: 'role: must be member or viewer (tenant administrators administer every namespace)',
});

export const NamespaceMemberSchema = z.object({
  namespaceId: z.string(),
  userId: z.string(),
  username: z.string(),
  /** The role granted in this namespace. */
  role: NamespaceRoleSchema,
  /** What the user may do here: `admin` for tenant administrators, `viewer` for tenant viewers, otherwise `role`. */
  effectiveRole: RoleSchema,
  createdAt: z.string(),
});
export type NamespaceMember = z.infer<typeof NamespaceMemberSchema>;

export const AddNamespaceMemberRequestSchema = z.strictObject({
  userId: z.string().min(1, 'userId is required').max(128),
  role: NamespaceRoleSchema.default('member'),
});
export type AddNamespaceMemberRequest = z.infer<typeof AddNamespaceMemberRequestSchema>;

export const UpdateNamespaceMemberRequestSchema = z.strictObject({ role: NamespaceRoleSchema });
export type UpdateNamespaceMemberRequest = z.infer<typeof UpdateNamespaceMemberRequestSchema>;

/** Removing a member also revokes their API keys bound to that namespace. */
export const RemovedNamespaceMemberSchema = z.object({
  removed: z.literal(true),
  revokedApiKeys: z.number().int(),
});
export type RemovedNamespaceMember = z.infer<typeof RemovedNamespaceMemberSchema>;

// ---- tenants (installation administration: `/v1/tenants`, `/api/admin/tenants`) ----

export const TenantInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  createdAt: z.string(),
});
export type TenantInfo = z.infer<typeof TenantInfoSchema>;

export const CreateTenantRequestSchema = z.strictObject({
  name: z.string().min(1, 'name is required').max(128),
  slug: SlugSchema,
  admin: z.strictObject(
    { username: UsernameSchema, password: NewPasswordSchema },
    { error: 'admin: send the first administrator as {username, password}' },
  ),
});
export type CreateTenantRequest = z.infer<typeof CreateTenantRequestSchema>;

/** A new tenant with the default namespace and first administrator made alongside it. */
export const CreatedTenantSchema = TenantInfoSchema.extend({
  namespace: NamespaceInfoSchema,
  admin: ManagedUserSchema,
});
export type CreatedTenant = z.infer<typeof CreatedTenantSchema>;

const tenant = entitySubjects('control.access.tenant', TenantInfoSchema);
const member = entitySubjects('control.access.namespace_member', NamespaceMemberSchema, {
  ...Scoped,
  id: z.string().min(1),
});
const OneMember = { userId: z.string().min(1) };

export const TenancySubjects = {
  createTenant: tenant.onScope('create', CreatedTenantSchema, { body: CreateTenantRequestSchema }),
  listTenants: tenant.list(AccessListQuerySchema),

  listMembers: member.list(AccessListQuerySchema),
  addMember: member.onScope('add', NamespaceMemberSchema, { body: AddNamespaceMemberRequestSchema }),
  updateMember: member.onScope('update', NamespaceMemberSchema, {
    ...OneMember,
    body: UpdateNamespaceMemberRequestSchema,
  }),
  removeMember: member.onScope('remove', RemovedNamespaceMemberSchema, OneMember),
} as const;
