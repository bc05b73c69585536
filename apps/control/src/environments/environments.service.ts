import { Injectable } from '@nestjs/common';
import {
  AppError,
  ID_PREFIXES,
  newId,
  normalizeEnvironmentConfig,
  type Actor,
  type CreateEnvironmentRequest,
  type Environment,
} from '@agentry/contracts';
import type { Environment as EnvironmentRow } from '@agentry/db';
import { assertCanWrite } from '../common/access.js';
import { storageTypeOf, toEnvironmentDto } from './environment.mapper.js';
import { EnvironmentsRepository } from './environments.repository.js';

@Injectable()
export class EnvironmentsService {
  constructor(private readonly environments: EnvironmentsRepository) {}

  async create(actor: Actor, body: CreateEnvironmentRequest): Promise<Environment> {
    assertCanWrite(actor);
    const config = normalizeEnvironmentConfig(body.config);
    const row = await this.environments.create(actor, {
      id: newId(ID_PREFIXES.environment),
      name: body.name,
      description: body.description ?? null,
      type: storageTypeOf(config),
      config,
      metadata: body.metadata ?? {},
    });
    return toEnvironmentDto(row);
  }

  async get(actor: Actor, id: string): Promise<Environment> {
    return toEnvironmentDto(await this.require(actor, id));
  }

  async require(actor: Actor, id: string): Promise<EnvironmentRow> {
    const row = await this.environments.find(actor, id);
    if (!row) throw new AppError('NOT_FOUND', `Environment ${id} not found`);
    return row;
  }
}
