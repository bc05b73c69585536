import { Injectable } from '@nestjs/common';
import {
  AppError,
  ID_PREFIXES,
  newId,
  type Actor,
  type CreateEnvironmentKeyRequest,
  type EnvironmentKey,
  type Page,
} from '@agentry/contracts';
import { assertCanWrite } from '../common/access.js';
import { newSecretToken } from '../auth/secret-token.js';
import { toEnvironmentKeyDto } from './environment.mapper.js';
import { EnvironmentKeysRepository } from './environment-keys.repository.js';
import { EnvironmentsService } from './environments.service.js';

/** Keys self-hosted workers present for an environment; the secret is returned once, at creation. */
@Injectable()
export class EnvironmentKeysService {
  constructor(
    private readonly keys: EnvironmentKeysRepository,
    private readonly environments: EnvironmentsService,
  ) {}

  async create(actor: Actor, environmentId: string, body: CreateEnvironmentKeyRequest): Promise<EnvironmentKey> {
    assertCanWrite(actor);
    const environment = await this.environments.require(actor, environmentId);
    if (environment.archivedAt) throw new AppError('INVALID_REQUEST', `Environment ${environmentId} is archived`);
    const secret = newSecretToken('agentry_envkey');
    const row = await this.keys.create(
      actor,
      { id: newId(ID_PREFIXES.environmentKey), environmentId, prefix: secret.display, keyHash: secret.hash },
      body.revoke_existing ?? false,
    );
    return toEnvironmentKeyDto(row, secret.token);
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
    if (!row) throw new AppError('NOT_FOUND', `Environment key ${keyId} not found on environment ${environmentId}`);
    return toEnvironmentKeyDto(row);
  }
}
