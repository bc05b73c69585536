import { Injectable } from '@nestjs/common';
import type { Role } from '@agentry/contracts';
import type { Namespace, NamespaceRole, User } from '@agentry/db';
import { MembershipsRepository } from './memberships.repository.js';
import { TenancyRepository } from './tenancy.repository.js';

/** A namespace a user may work in, and the role they have there (the effective role of their requests). */
export interface Placement {
  namespace: Namespace;
  role: Role;
}

/**
 * What a user may do in a namespace: tenant administrators administer every namespace; everyone else
 * has their member role there, capped by their tenant role (a tenant viewer only reads anywhere).
 */
export function effectiveRole(tenantRole: Role, memberRole: NamespaceRole): Role {
  if (tenantRole === 'admin') return 'admin';
  return tenantRole === 'viewer' ? 'viewer' : memberRole;
}

/**
 * The one rule of who works where: tenant administrators in every namespace of their tenant; everyone
 * else only in the namespaces they are members of.
 */
@Injectable()
export class NamespacePlacement {
  constructor(
    private readonly tenancy: TenancyRepository,
    private readonly memberships: MembershipsRepository,
  ) {}

  /** Null when the namespace does not exist in the user's tenant or the user is not in it. */
  async in(user: User, namespaceId: string): Promise<Placement | null> {
    if (user.role === 'admin') {
      const namespace = await this.tenancy.findNamespace(user.tenantId, namespaceId);
      return namespace ? { namespace, role: 'admin' } : null;
    }
    const membership = await this.memberships.find(user.tenantId, namespaceId, user.id);
    return membership
      ? { namespace: membership.namespace, role: effectiveRole(user.role, membership.role) }
      : null;
  }

  /** The user's first membership; an administrator without one works in the tenant's first namespace. */
  async default(user: User): Promise<Placement | null> {
    const membership = await this.memberships.first(user.tenantId, user.id);
    if (membership)
      return { namespace: membership.namespace, role: effectiveRole(user.role, membership.role) };
    if (user.role !== 'admin') return null;
    const namespace = await this.tenancy.defaultNamespace(user.tenantId);
    return namespace ? { namespace, role: 'admin' } : null;
  }

  /** Every namespace the user works in, with their role there. */
  async all(user: User): Promise<Placement[]> {
    if (user.role === 'admin')
      return (await this.tenancy.listNamespaces(user.tenantId)).map((namespace) => ({
        namespace,
        role: 'admin',
      }));
    const memberships = await this.memberships.listOfUser(user.tenantId, user.id);
    return memberships.map((m) => ({ namespace: m.namespace, role: effectiveRole(user.role, m.role) }));
  }
}
