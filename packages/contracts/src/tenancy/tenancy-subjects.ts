import { z } from 'zod';
import { RoleSchema } from '../nats/actor.js';
import { rpcSubject } from '../nats/subject.js';
import { Scoped } from '../nats/request-fields.js';
import { pageSchema } from '../common/paging.js';
import {
  AccessListQuerySchema,
  ManagedUserSchema,
  NamespaceInfoSchema,
  NewPasswordSchema,
  SlugSchema,
  UsernameSchema,
} from './access-subjects.js';

const OneMember = { ...Scoped, id: z.string().min(1), userId: z.string().min(1) };

// ---- namespace membership (`/api/admin/namespaces/{id}/members`) ----

/** A role inside one namespace. Tenant administrators are administrators of every namespace without one. */
export const NamespaceRoleSchema = z.enum(['member', 'viewer'], {
  error: 'role: must be member or viewer (tenant administrators administer every namespace)',
});
export type NamespaceRole = z.infer<typeof NamespaceRoleSchema>;

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

export const TenancySubjects = {
  createTenant: rpcSubject(
    'control.access.tenant.create',
    z.object({ ...Scoped, body: CreateTenantRequestSchema }),
    CreatedTenantSchema,
  ),
  listTenants: rpcSubject(
    'control.access.tenant.list',
    z.object({ ...Scoped, query: AccessListQuerySchema }),
    pageSchema(TenantInfoSchema),
  ),

  listMembers: rpcSubject(
    'control.access.namespace_member.list',
    z.object({ ...Scoped, id: z.string().min(1), query: AccessListQuerySchema }),
    pageSchema(NamespaceMemberSchema),
  ),
  addMember: rpcSubject(
    'control.access.namespace_member.add',
    z.object({ ...Scoped, id: z.string().min(1), body: AddNamespaceMemberRequestSchema }),
    NamespaceMemberSchema,
  ),
  updateMember: rpcSubject(
    'control.access.namespace_member.update',
    z.object({ ...OneMember, body: UpdateNamespaceMemberRequestSchema }),
    NamespaceMemberSchema,
  ),
  removeMember: rpcSubject(
    'control.access.namespace_member.remove',
    z.object(OneMember),
    RemovedNamespaceMemberSchema,
  ),
} as const;
