import { z } from 'zod';
import { RoleSchema } from '../nats/actor.js';
import type { CreatedTenant, TenantInfo } from './tenancy-subjects.js';
import { pageSchema } from '../common/paging.js';

/** `/v1/tenants` (Agentry extension, snake_case): a tenant as installation administrators see it. */
const V1TenantSchema = z.object({
  type: z.literal('tenant'),
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  created_at: z.string(),
});
export type V1Tenant = z.infer<typeof V1TenantSchema>;

export const V1CreatedTenantSchema = V1TenantSchema.extend({
  default_namespace: z.object({
    type: z.literal('namespace'),
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    created_at: z.string(),
  }),
  admin: z.object({
    type: z.literal('user'),
    id: z.string(),
    username: z.string(),
    role: RoleSchema,
    created_at: z.string(),
  }),
});
export type V1CreatedTenant = z.infer<typeof V1CreatedTenantSchema>;

export const V1TenantPageSchema = pageSchema(V1TenantSchema);

export function toV1Tenant(tenant: TenantInfo): V1Tenant {
  return {
    type: 'tenant',
    id: tenant.id,
    name: tenant.name,
    slug: tenant.slug,
    created_at: tenant.createdAt,
  };
}

export function toV1CreatedTenant(created: CreatedTenant): V1CreatedTenant {
  const { namespace: ns, admin } = created;
  return {
    ...toV1Tenant(created),
    default_namespace: {
      type: 'namespace',
      id: ns.id,
      name: ns.name,
      slug: ns.slug,
      created_at: ns.createdAt,
    },
    admin: {
      type: 'user',
      id: admin.id,
      username: admin.username,
      role: admin.role,
      created_at: admin.createdAt,
    },
  };
}
