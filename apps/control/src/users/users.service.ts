import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  ID_PREFIXES,
  newId,
  type AccessListQuery,
  type Actor,
  type ChangePasswordRequest,
  type CreateUserRequest,
  type ManagedUser,
  type Page,
  type UpdateUserRequest,
} from '@agentry/contracts';
import { CLOCK, type Clock } from '@agentry/platform';
import { AuditLogService } from '../audit/audit-log.service.js';
import { AccessChangesPublisher } from '../auth/access-changes.publisher.js';
import { hashPassword, verifyPassword } from '../auth/password-hasher.js';
import { UsersRepository, type UserChanges } from '../auth/users.repository.js';
import { assertAdmin, requireUser } from '../common/access.js';
import { TenancyRepository } from '../tenancy/tenancy.repository.js';
import { decodeIdCursor } from '@agentry/contracts/v1';
import { toIdPage } from '../common/page-cursor.js';
import { toManagedUser } from './user.mapper.js';

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly tenancy: TenancyRepository,
    private readonly audit: AuditLogService,
    private readonly accessChanges: AccessChangesPublisher,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(actor: Actor, query: AccessListQuery): Promise<Page<ManagedUser>> {
    assertAdmin(actor);
    const rows = await this.users.listInTenant(actor.tenantId, {
      limit: query.limit + 1,
      afterId: decodeIdCursor(query.page),
    });
    return toIdPage(rows, query.limit, toManagedUser);
  }

  /** The user joins one namespace: the one the body names, else the creator's current one. */
  async create(actor: Actor, body: CreateUserRequest): Promise<ManagedUser> {
    assertAdmin(actor);
    const username = body.username.toLowerCase();
    const namespaceId = body.namespaceId ?? actor.namespaceId;
    if (!(await this.tenancy.findNamespace(actor.tenantId, namespaceId)))
      throw new AppError('NOT_FOUND', `namespaceId: namespace ${namespaceId} not found`);
    if (await this.users.findByUsername(actor.tenantId, username))
      throw new AppError('ALREADY_EXISTS', `username: "${username}" is already taken`);
    const data = {
      id: newId(ID_PREFIXES.user),
      tenantId: actor.tenantId,
      username,
      role: body.role,
      email: body.email ?? null,
      displayName: body.displayName ?? null,
      passwordHash: await hashPassword(body.password),
    };
    const namespaceRole = body.role === 'viewer' ? 'viewer' : 'member';
    let row;
    try {
      row = await this.users.createInNamespace(data, namespaceId, namespaceRole);
    } catch (error) {
      if ((error as { code?: string }).code === 'P2002')
        throw new AppError('ALREADY_EXISTS', `username: "${username}" is already taken`);
      throw error;
    }
    await this.audit.record(actor, {
      action: 'create',
      resourceType: 'user',
      resourceId: row.id,
      details: { role: row.role, namespaceId, namespaceRole },
    });
    return toManagedUser(row);
  }

  async update(actor: Actor, id: string, body: UpdateUserRequest): Promise<ManagedUser> {
    assertAdmin(actor);
    const user = await this.users.findInTenant(actor.tenantId, id);
    if (!user) throw new AppError('NOT_FOUND', `User ${id} not found`);
    // An administrator locking themselves out would leave the tenant with no way back in.
    if (id === actor.userId && ((body.role && body.role !== 'admin') || body.disabled)) {
      throw new AppError('INVALID_REQUEST', 'An administrator cannot demote or disable their own account');
    }
    const changes: UserChanges = {};
    if (body.role) changes.role = body.role;
    if (body.disabled !== undefined)
      changes.disabledAt = body.disabled ? (user.disabledAt ?? this.clock.now()) : null;
    if (body.displayName !== undefined) changes.displayName = body.displayName;
    const row = await this.users.update(actor.tenantId, id, changes);
    this.accessChanges.changed({ tenantId: actor.tenantId, userId: id });
    await this.audit.record(actor, {
      action: 'update',
      resourceType: 'user',
      resourceId: id,
      details: { ...body },
    });
    return toManagedUser(row);
  }

  async changePassword(actor: Actor, body: ChangePasswordRequest): Promise<{ ok: true }> {
    const userId = requireUser(actor, 'Changing a password');
    const user = await this.users.findInTenant(actor.tenantId, userId);
    if (!user || user.disabledAt)
      throw new AppError('UNAUTHENTICATED', 'The user of this token no longer exists');
    if (!(await verifyPassword(body.currentPassword, user.passwordHash))) {
      throw new AppError('INVALID_REQUEST', 'currentPassword: does not match the current password');
    }
    await this.users.update(actor.tenantId, userId, { passwordHash: await hashPassword(body.newPassword) });
    this.accessChanges.changed({ tenantId: actor.tenantId, userId });
    await this.audit.record(actor, { action: 'change_password', resourceType: 'user', resourceId: userId });
    return { ok: true };
  }
}
