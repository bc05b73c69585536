import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  applyMetadataPatch,
  ID_PREFIXES,
  newId,
  type Actor,
  type CreateDeploymentRequest,
  type Deployment,
  type DeploymentError,
  type ListDeploymentsParams,
  type Metadata,
  type Page,
  type UpdateDeploymentRequest,
} from '@agentry/contracts';
import { Prisma, type Deployment as DeploymentRow } from '@agentry/db';
import { CLOCK, type Clock } from '@agentry/platform';
import { AgentsService } from '../agents/agents.service.js';
import { AuditLogService } from '../audit/audit-log.service.js';
import { assertCanWrite } from '../common/access.js';
import { decodeIdCursor, encodeCursor } from '@agentry/contracts/v1';
import { resumableById } from '../common/page-cursor.js';
import { EnvironmentsService } from '../environments/environments.service.js';
import { MemoryStoresService } from '../memory-stores/memory-stores.service.js';
import { VaultsService } from '../vaults/vaults.service.js';
import { agentReference, assertReferencesExist, type ReferenceServices } from './deployment-references.js';
import { toDeploymentDto } from './deployment.mapper.js';
import { assertRunnableSchedule } from './cron-occurrences.js';
import { DeploymentsRepository } from './deployments.repository.js';
import { DeploymentChangesPublisher } from './deployment-changes.publisher.js';

const json = (value: unknown) => value as Prisma.InputJsonValue;
/** Clears a nullable JSON column (SQL NULL, not JSON null). */
const NULL_JSON = Prisma.DbNull;

@Injectable()
export class DeploymentsService {
  /** What a deployment may name; runs check the same services before creating a session. */
  readonly references: ReferenceServices;

  constructor(
    private readonly deployments: DeploymentsRepository,
    private readonly changes: DeploymentChangesPublisher,
    private readonly audit: AuditLogService,
    agents: AgentsService,
    environments: EnvironmentsService,
    vaults: VaultsService,
    memoryStores: MemoryStoresService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.references = { agents, environments, vaults, memoryStores };
  }

  async create(actor: Actor, body: CreateDeploymentRequest): Promise<Deployment> {
    assertCanWrite(actor);
    assertRunnableSchedule(body.schedule);
    await assertReferencesExist(actor, body, this.references);
    const row = await this.deployments.create(actor, newId(ID_PREFIXES.deployment), {
      name: body.name,
      description: body.description ?? null,
      ...agentReference(body.agent),
      environmentId: body.environment_id,
      schedule: body.schedule ? json(body.schedule) : undefined,
      initialEvents: json(body.initial_events),
      resources: json(body.resources ?? []),
      vaultIds: body.vault_ids ?? [],
      budget: body.budget ? json(body.budget) : undefined,
      metadata: body.metadata ?? {},
    });
    this.changes.changed(row.id);
    await this.recorded(actor, 'create', row.id);
    return this.toDto(actor, row);
  }

  async get(actor: Actor, id: string): Promise<Deployment> {
    return this.toDto(actor, await this.require(actor, id));
  }

  async update(actor: Actor, id: string, body: UpdateDeploymentRequest): Promise<Deployment> {
    const row = await this.requireLive(actor, id);
    assertRunnableSchedule(body.schedule);
    await assertReferencesExist(actor, body, this.references);
    const data: Prisma.DeploymentUncheckedUpdateInput = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.agent !== undefined ? agentReference(body.agent) : {}),
      ...(body.environment_id !== undefined ? { environmentId: body.environment_id } : {}),
      ...(body.initial_events !== undefined ? { initialEvents: json(body.initial_events) } : {}),
      ...(body.schedule !== undefined ? { schedule: body.schedule ? json(body.schedule) : NULL_JSON } : {}),
      ...(body.resources !== undefined ? { resources: json(body.resources ?? []) } : {}),
      ...(body.vault_ids !== undefined ? { vaultIds: body.vault_ids ?? [] } : {}),
      ...(body.budget !== undefined ? { budget: body.budget ? json(body.budget) : NULL_JSON } : {}),
      metadata: applyMetadataPatch(row.metadata as Metadata, body.metadata),
    };
    const updated = await this.deployments.update(actor, id, data);
    this.changes.changed(id);
    await this.recorded(actor, 'update', id);
    return this.toDto(actor, updated);
  }

  /** Pausing stops future fires; unpausing does not backfill the ones missed meanwhile. */
  async setPaused(actor: Actor, id: string, paused: boolean): Promise<Deployment> {
    const row = await this.requireLive(actor, id);
    if (Boolean(row.pausedAt) === paused) return this.toDto(actor, row);
    const updated = await this.deployments.update(
      actor,
      id,
      paused
        ? { pausedAt: this.clock.now(), pausedReason: { type: 'manual' } }
        : { pausedAt: null, pausedReason: NULL_JSON },
    );
    this.changes.changed(id);
    await this.recorded(actor, paused ? 'pause' : 'unpause', id);
    return this.toDto(actor, updated);
  }

  /** Auto-pause after a run failed in a way that will not fix itself; CMA keeps only the error type. */
  async pauseForError(actor: Actor, id: string, error: DeploymentError): Promise<void> {
    await this.deployments.update(actor, id, {
      pausedAt: this.clock.now(),
      pausedReason: { type: 'error', error: { type: error.type } },
    });
    this.changes.changed(id);
    await this.recorded(actor, 'pause', id, { reason: error.type });
  }

  async archive(actor: Actor, id: string): Promise<Deployment> {
    assertCanWrite(actor);
    const row = await this.require(actor, id);
    if (row.archivedAt) return this.toDto(actor, row);
    // An archived deployment never fires again, so its webhook token is dropped with it.
    const archived = await this.deployments.update(actor, id, {
      archivedAt: this.clock.now(),
      webhookTokenHash: null,
    });
    this.changes.changed(id);
    await this.recorded(actor, 'archive', id);
    return this.toDto(actor, archived);
  }

  async list(actor: Actor, query: ListDeploymentsParams): Promise<Page<Deployment>> {
    const rows = await this.deployments.list(actor, {
      limit: query.limit + 1,
      afterId: decodeIdCursor(query.page),
      order: query.order ?? 'desc',
      includeArchived: query.include_archived ?? false,
      agentId: query.agent_id,
      paused: query.status === undefined ? undefined : query.status === 'paused',
    });
    const page = rows.slice(0, query.limit);
    const now = this.clock.now();
    const heads = await this.deployments.agentHeads(actor, [...new Set(page.map((r) => r.agentId))]);
    const last = page.at(-1);
    return resumableById({
      data: page.map((row) => toDeploymentDto(row, row.agentVersion ?? heads.get(row.agentId) ?? 1, now)),
      next_page: rows.length > query.limit && last ? encodeCursor(last.id) : null,
    });
  }

  async require(actor: Actor, id: string): Promise<DeploymentRow> {
    const row = await this.deployments.find(actor, id);
    if (!row) throw new AppError('NOT_FOUND', `Deployment ${id} not found`);
    return row;
  }

  private async requireLive(actor: Actor, id: string): Promise<DeploymentRow> {
    assertCanWrite(actor);
    const row = await this.require(actor, id);
    if (row.archivedAt)
      throw new AppError('PRECONDITION_FAILED', `Deployment ${id} is archived and cannot be changed`);
    return row;
  }

  /** The audit entry of a change, which is also its `deployment.*` webhook event. */
  private recorded(
    actor: Actor,
    action: string,
    id: string,
    details?: Record<string, unknown>,
  ): Promise<void> {
    return this.audit.record(actor, {
      action,
      resourceType: 'deployment',
      resourceId: id,
      ...(details ? { details } : {}),
    });
  }

  async toDto(actor: Actor, row: DeploymentRow): Promise<Deployment> {
    if (row.agentVersion !== null) return toDeploymentDto(row, row.agentVersion, this.clock.now());
    const heads = await this.deployments.agentHeads(actor, [row.agentId]);
    return toDeploymentDto(row, heads.get(row.agentId) ?? 1, this.clock.now());
  }
}
