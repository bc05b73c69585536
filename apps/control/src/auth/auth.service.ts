import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { AppError, type Actor, type AuthenticatedUser, type VerifiedApiKey } from '@agentry/contracts';
import { CLOCK, LOGGER, type Clock, type Logger } from '@agentry/platform';
import type { User } from '@agentry/db';
import { CONTROL_CONFIG } from '../config/control-config.token.js';
import type { ControlEnv } from '../config/env.js';
import { NamespacePlacement, type Placement } from '../tenancy/namespace-placement.js';
import { TenancyRepository } from '../tenancy/tenancy.repository.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { hashPassword, verifyPassword } from './password-hasher.js';
import { hashSecretToken, lastUsedIsStale } from './secret-token.js';
import { UsersRepository } from './users.repository.js';

const INVALID_LOGIN = 'Invalid username or password';

@Injectable()
export class AuthService implements OnApplicationBootstrap {
  constructor(
    private readonly users: UsersRepository,
    private readonly apiKeys: ApiKeysRepository,
    private readonly tenancy: TenancyRepository,
    private readonly placement: NamespacePlacement,
    @Inject(CONTROL_CONFIG) private readonly config: ControlEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { AGENTRY_ADMIN_USERNAME: username, AGENTRY_ADMIN_PASSWORD: password } = this.config;
    if (password === 'admin') {
      if (this.config.NODE_ENV === 'production') {
        throw new Error('AGENTRY_ADMIN_PASSWORD must be set in production; the default "admin" is refused');
      }
      this.logger.warn(
        { username },
        'THE ADMIN PASSWORD IS THE DEFAULT "admin": set AGENTRY_ADMIN_PASSWORD before exposing this installation',
      );
    }
    const { created } = await this.tenancy.seedDefaultTenant({
      username: username.toLowerCase(),
      passwordHash: await hashPassword(password),
    });
    if (created) this.logger.info({ username }, 'seeded default tenant and admin user');
  }

  /**
   * Usernames are unique per tenant. With a tenant (slug or id) the login is that tenant's user; without
   * one, the password picks among the users of that name, so an unauthenticated caller learns nothing
   * about other tenants. Only a password that opens accounts in several tenants is refused as ambiguous.
   */
  async login(username: string, password: string, tenant?: string): Promise<AuthenticatedUser> {
    const candidates = await this.users.findForLogin(username, tenant);
    // Verify against a throwaway hash when the user is unknown, so timing does not reveal usernames.
    if (!candidates.length) await verifyPassword(password, DUMMY_HASH);
    const matches: User[] = [];
    for (const user of candidates) if (await verifyPassword(password, user.passwordHash)) matches.push(user);
    const active = matches.filter((user) => !user.disabledAt);
    if (!active.length) throw new AppError('UNAUTHENTICATED', INVALID_LOGIN);
    if (active.length > 1) {
      throw new AppError(
        'INVALID_REQUEST',
        `tenant: username "${username}" exists in several tenants; name the tenant (its slug) to sign in`,
      );
    }
    return this.describe(active[0]!);
  }

  async userActor(userId: string): Promise<Actor> {
    return this.resolveUser(userId, null);
  }

  /**
   * The actor of a user token in the namespace the request names (or the user's first). A namespace
   * the user does not belong to is not found, exactly like one that does not exist.
   */
  async resolveUser(userId: string, namespaceId: string | null): Promise<Actor> {
    const user = await this.users.findById(userId);
    if (!user || user.disabledAt)
      throw new AppError('UNAUTHENTICATED', 'The user of this token no longer exists or is disabled');
    const placement = namespaceId
      ? await this.placement.in(user, namespaceId)
      : await this.defaultPlacement(user);
    if (!placement)
      throw new AppError('NOT_FOUND', `x-agentry-namespace: namespace ${namespaceId} not found`);
    return {
      tenantId: user.tenantId,
      namespaceId: placement.namespace.id,
      userId: user.id,
      apiKeyId: null,
      role: placement.role,
    };
  }

  /**
   * A key never has more rights than its owner has now in the key's namespace: a disabled owner's keys,
   * and the keys of an owner who left that namespace, stop working.
   */
  async verifyApiKey(key: string): Promise<VerifiedApiKey> {
    const record = await this.apiKeys.findByHash(hashSecretToken(key));
    if (!record || record.revokedAt || (record.expiresAt && record.expiresAt < this.clock.now())) {
      throw new AppError('UNAUTHENTICATED', 'Invalid or revoked API key');
    }
    const owner = record.userId ? await this.users.findById(record.userId) : null;
    if (record.userId && (!owner || owner.disabledAt))
      throw new AppError('UNAUTHENTICATED', 'Invalid or revoked API key');
    const ownerRole = owner ? (await this.placement.in(owner, record.namespaceId))?.role : 'member';
    if (!ownerRole) throw new AppError('UNAUTHENTICATED', 'Invalid or revoked API key');
    if (lastUsedIsStale(record.lastUsedAt, this.clock.nowMs()))
      void this.apiKeys.touch(record.id).catch(() => undefined);
    const canWrite =
      (record.permissions.includes('write') || record.permissions.length === 0) && ownerRole !== 'viewer';
    return {
      tenantId: record.tenantId,
      namespaceId: record.namespaceId,
      userId: record.userId,
      apiKeyId: record.id,
      role: canWrite ? 'member' : 'viewer',
      keyExpiresAt: record.expiresAt?.toISOString() ?? null,
    };
  }

  private async describe(user: User): Promise<AuthenticatedUser> {
    const placement = await this.defaultPlacement(user);
    return {
      id: user.id,
      username: user.username,
      role: placement.role,
      tenantId: user.tenantId,
      namespaceId: placement.namespace.id,
    };
  }

  private async defaultPlacement(user: User): Promise<Placement> {
    const placement = await this.placement.default(user);
    if (placement) return placement;
    if (user.role === 'admin') throw new AppError('INTERNAL', `Tenant ${user.tenantId} has no namespace`);
    throw new AppError(
      'PERMISSION_DENIED',
      'This user is not a member of any namespace; ask an administrator to add them to one',
    );
  }
}

const DUMMY_HASH = 'scrypt$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
