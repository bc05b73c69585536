import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  ID_PREFIXES,
  newId,
  type Actor,
  type CreateEnvironmentKeyRequest,
  type EnvironmentKey,
  type Page,
  type WorkPrincipal,
} from '@agentry/contracts';
import { CLOCK, type Clock } from '@agentry/platform';
import { assertCanWrite } from '../common/access.js';
import { hashSecretToken, lastUsedIsStale, newSecretToken } from '../auth/secret-token.js';
import { toEnvironmentKeyDto } from './environment.mapper.js';
import { EnvironmentKeysRepository } from './environment-keys.repository.js';

const KEY_PREFIX = 'agentry_envkey';
import { EnvironmentsService } from './environments.service.js';

/** Keys self-hosted workers present for an environment; the secret is returned once, at creation. */
@Injectable()
export class EnvironmentKeysService {
  constructor(
    private readonly keys: EnvironmentKeysRepository,
    private readonly environments: EnvironmentsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(
    actor: Actor,
    environmentId: string,
    body: CreateEnvironmentKeyRequest,
  ): Promise<EnvironmentKey> {
    assertCanWrite(actor);
    const environment = await this.environments.require(actor, environmentId);
    if (environment.archivedAt)
      throw new AppError('INVALID_REQUEST', `Environment ${environmentId} is archived`);
    const secret = newSecretToken(KEY_PREFIX);
    const row = await this.keys.create(
      actor,
      { id: newId(ID_PREFIXES.environmentKey), environmentId, prefix: secret.display, keyHash: secret.hash },
      body.revoke_existing ?? false,
    );
    return toEnvironmentKeyDto(row, secret.token);
  }

  /**
   * The worker a key admits: its environment, tenant and namespace. Unknown and revoked keys, and
   * keys of an archived environment, are all UNAUTHENTICATED: none of them may reach the queue.
   */
  async verify(key: string): Promise<WorkPrincipal> {
    const record = key.startsWith(`${KEY_PREFIX}_`) ? await this.keys.findByHash(hashSecretToken(key)) : null;
    if (!record || record.revokedAt)
      throw new AppError('UNAUTHENTICATED', 'Invalid or revoked environment key');
    const { environment } = record;
    if (environment.archivedAt) {
      throw new AppError(
        'UNAUTHENTICATED',
        `Environment ${environment.id} is archived: its keys no longer open its work queue`,
      );
    }
    if (lastUsedIsStale(record.lastUsedAt, this.clock.nowMs()))
      void this.keys.touch(record.id).catch(() => undefined);
    return {
      tenantId: environment.tenantId,
      namespaceId: environment.namespaceId,
      environmentId: environment.id,
      workId: null,
      sessionId: null,
    };
  }

  async list(actor: Actor, environmentId: string): Promise<Page<EnvironmentKey>> {
    await this.environments.require(actor, environmentId);
    const rows = await this.keys.list(actor, environmentId);
    return { data: rows.map((row) => toEnvironmentKeyDto(row)), next_page: null };
  }

  async revoke(actor: Actor, environmentId: string, keyId: string): Promise<EnvironmentKey> {
    assertCanWrite(actor);
    await this.environments.require(actor, environmentId);
    const row = await this.keys.revoke(actor, environmentId, keyId);
    if (!row)
      throw new AppError('NOT_FOUND', `Environment key ${keyId} not found on environment ${environmentId}`);
    return toEnvironmentKeyDto(row);
  }
}
