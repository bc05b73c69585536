import { Injectable } from '@nestjs/common';
import {
  AppError,
  ID_PREFIXES,
  LIMITS,
  applyMetadataPatch,
  newId,
  normalizeEnvironmentConfig,
  type Actor,
  type CreateEnvironmentRequest,
  type Environment,
  type EnvironmentDeleted,
  type ListParams,
  type Page,
  type UpdateEnvironmentRequest,
} from '@agentry/contracts';
import { Prisma, type Environment as EnvironmentRow } from '@agentry/db';
import { assertCanWrite } from '../common/access.js';
import { AuditLogService } from '../audit/audit-log.service.js';
import { decodeIdCursor } from '@agentry/contracts/v1';
import { toIdPage } from '../common/page-cursor.js';
import { storageTypeOf, toEnvironmentDto } from './environment.mapper.js';
import { EnvironmentsRepository, type EnvironmentChanges } from './environments.repository.js';
import { buildStatusOf } from './environment-build.mapper.js';
import { EnvironmentBuildsRepository } from './environment-builds.repository.js';

@Injectable()
export class EnvironmentsService {
  constructor(
    private readonly environments: EnvironmentsRepository,
    private readonly audit: AuditLogService,
    private readonly builds: EnvironmentBuildsRepository,
  ) {}

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
    await this.audit.record(actor, { action: 'create', resourceType: 'environment', resourceId: row.id });
    return this.present(row);
  }

  async get(actor: Actor, id: string): Promise<Environment> {
    return this.present(await this.require(actor, id));
  }

  /** The environment as every endpoint shows it: a cloud one with the state of its image build. */
  private async present(row: EnvironmentRow): Promise<Environment> {
    const environment = toEnvironmentDto(row);
    const build = await buildStatusOf(this.builds, row.tenantId, row.id, environment.config);
    return build ? { ...environment, agentry_build: build } : environment;
  }

  async require(actor: Actor, id: string): Promise<EnvironmentRow> {
    const row = await this.environments.find(actor, id);
    if (!row) throw new AppError('NOT_FOUND', `Environment ${id} not found`);
    return row;
  }

  /** Partial update; a config replaces the stored one but may not change its type. */
  async update(actor: Actor, id: string, body: UpdateEnvironmentRequest): Promise<Environment> {
    assertCanWrite(actor);
    const row = await this.require(actor, id);
    const changes: EnvironmentChanges = {};
    if (body.name) changes.name = body.name;
    if (body.description !== undefined) changes.description = body.description || null;
    if (body.config) {
      const currentType = (row.config as { type: string }).type;
      if (body.config.type !== currentType) {
        throw new AppError(
          'INVALID_REQUEST',
          `config.type: environment ${id} is "${currentType}" and its type cannot change`,
        );
      }
      changes.config = normalizeEnvironmentConfig(body.config);
    }
    if (body.metadata !== undefined) {
      const metadata = applyMetadataPatch(row.metadata as Record<string, string>, body.metadata);
      if (Object.keys(metadata).length > LIMITS.metadataKeys) {
        throw new AppError(
          'INVALID_REQUEST',
          `metadata: would hold more than ${LIMITS.metadataKeys} keys after the patch`,
        );
      }
      changes.metadata = metadata;
    }
    if (Object.keys(changes).length > 0) {
      await this.environments.update(actor, id, changes);
      await this.audit.record(actor, {
        action: 'update',
        resourceType: 'environment',
        resourceId: id,
        details: { fields: Object.keys(changes) },
      });
    }
    return this.get(actor, id);
  }

  async list(actor: Actor, query: ListParams): Promise<Page<Environment>> {
    const rows = await this.environments.list(actor, {
      limit: query.limit + 1,
      afterId: decodeIdCursor(query.page),
      order: query.order ?? 'desc',
      includeArchived: query.include_archived ?? false,
    });
    const shown = await Promise.all(rows.slice(0, query.limit).map((row) => this.present(row)));
    const byId = new Map(shown.map((environment) => [environment.id, environment]));
    return toIdPage(rows, query.limit, (row) => byId.get(row.id) ?? toEnvironmentDto(row));
  }

  async archive(actor: Actor, id: string): Promise<Environment> {
    assertCanWrite(actor);
    await this.require(actor, id);
    await this.environments.archive(actor, id);
    await this.audit.record(actor, { action: 'archive', resourceType: 'environment', resourceId: id });
    return this.get(actor, id);
  }

  async delete(actor: Actor, id: string): Promise<EnvironmentDeleted> {
    assertCanWrite(actor);
    await this.require(actor, id);
    const { liveSessions } = await this.environments.delete(actor, id).catch((cause: unknown) => {
      // A foreign-key failure here means a session was created between the check and the delete.
      if (!(cause instanceof Prisma.PrismaClientKnownRequestError)) throw cause;
      throw new AppError(
        'CONFLICT',
        `Environment ${id} gained a session while being deleted; archive its sessions first`,
        { cause },
      );
    });
    if (liveSessions > 0) {
      throw new AppError(
        'CONFLICT',
        `Environment ${id} is used by ${liveSessions} session(s) that are not archived; archive or delete them first`,
      );
    }
    await this.audit.record(actor, { action: 'delete', resourceType: 'environment', resourceId: id });
    return { id, type: 'environment_deleted' };
  }
}
