import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  ID_PREFIXES,
  Jobs,
  newId,
  type Actor,
  type CreateDreamRequest,
  type Dream,
  type DreamInput,
  type ListDreamsParams,
  type Page,
} from '@agentry/contracts';
import { decodeIdCursor } from '@agentry/contracts/v1';
import type { ServiceDatabase } from '@agentry/db';
import { DATABASE, JobQueue } from '@agentry/platform';
import { assertCanWrite } from '../common/access.js';
import { toIdPage } from '../common/page-cursor.js';
import { MemoryStoresService } from '../memory-stores/memory-stores.service.js';
import { toDreamDto, ZERO_DREAM_USAGE } from './dream.mapper.js';
import { DreamsRepository } from './dreams.repository.js';

/** CMA dreams: created pending and run by the `dream` job (see DreamRunner). */
@Injectable()
export class DreamsService {
  constructor(
    private readonly dreams: DreamsRepository,
    private readonly stores: MemoryStoresService,
    private readonly jobs: JobQueue,
    @Inject(DATABASE) private readonly db: ServiceDatabase<'control'>,
  ) {}

  async create(actor: Actor, body: CreateDreamRequest): Promise<Dream> {
    assertCanWrite(actor);
    const storeId = body.inputs.find((i) => i.type === 'memory_store')!.memory_store_id;
    const sessionIds = body.inputs.find((i) => i.type === 'sessions')?.session_ids ?? [];
    const store = await this.stores.require(actor, storeId);
    if (store.archivedAt)
      throw new AppError('INVALID_REQUEST', `inputs: memory store ${storeId} is archived`);
    await this.requireSessions(actor, sessionIds);
    const behavior = body.output_behavior ?? { type: 'create_new' as const };
    if (behavior.type === 'update_existing') {
      if (behavior.memory_store_id !== storeId)
        throw new AppError(
          'INVALID_REQUEST',
          `output_behavior.memory_store_id: must be the input memory store ${storeId}`,
        );
      const holder = await this.dreams.liveWriterOf(actor.tenantId, storeId);
      if (holder)
        throw new AppError('CONFLICT', `Dream ${holder.id} is still writing into memory store ${storeId}`);
    }
    const model = typeof body.model === 'string' ? { id: body.model } : { id: body.model.id };
    const inputs: DreamInput[] = body.inputs.map((i) =>
      i.type === 'sessions' ? { type: 'sessions', session_ids: [...i.session_ids].sort() } : i,
    );
    const row = await this.dreams.create({
      id: newId(ID_PREFIXES.dream),
      tenantId: actor.tenantId,
      namespaceId: actor.namespaceId,
      status: 'pending',
      inputs,
      instructions: body.instructions ?? null,
      model: { ...model, speed: 'standard' },
      outputBehavior: behavior,
      // Updating in place: the output store is known (and held against a second writer) from the start.
      outputStoreId: behavior.type === 'update_existing' ? storeId : null,
      usage: ZERO_DREAM_USAGE,
      createdBy: actor,
    });
    await this.jobs.enqueue(Jobs.dream, { dreamId: row.id, tenantId: row.tenantId });
    return toDreamDto(row);
  }

  async get(actor: Actor, id: string): Promise<Dream> {
    return toDreamDto(await this.require(actor, id));
  }

  async list(actor: Actor, query: ListDreamsParams): Promise<Page<Dream>> {
    const rows = await this.dreams.list(actor, {
      limit: query.limit + 1,
      afterId: decodeIdCursor(query.page),
      order: query.order ?? 'desc',
      statuses: query.statuses,
      includeArchived: query.include_archived ?? false,
      createdAfter: query['created_at[gt]'],
      createdBefore: query['created_at[lt]'],
    });
    return toIdPage(rows, query.limit, toDreamDto);
  }

  async archive(actor: Actor, id: string): Promise<Dream> {
    assertCanWrite(actor);
    const row = await this.require(actor, id);
    if (row.archivedAt) return toDreamDto(row);
    if (row.status === 'pending' || row.status === 'running')
      throw new AppError('INVALID_REQUEST', `Dream ${id} is ${row.status}: cancel it before archiving it`);
    return toDreamDto(await this.dreams.archive(id));
  }

  async cancel(actor: Actor, id: string): Promise<Dream> {
    assertCanWrite(actor);
    const row = await this.require(actor, id);
    if (row.status === 'canceled') return toDreamDto(row);
    if (row.status === 'completed' || row.status === 'failed')
      throw new AppError(
        'INVALID_REQUEST',
        `Dream ${id} already ended (${row.status}) and cannot be canceled`,
      );
    const canceled = await this.dreams.transition(id, ['pending', 'running'], 'canceled');
    // It ended on its own meanwhile: answer what it became.
    return toDreamDto(canceled ?? (await this.require(actor, id)));
  }

  private async require(actor: Actor, id: string) {
    const row = await this.dreams.find(actor, id);
    if (!row) throw new AppError('NOT_FOUND', `Dream ${id} not found`);
    return row;
  }

  private async requireSessions(actor: Actor, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const found = await this.db.session.findMany({
      where: { id: { in: ids }, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
      select: { id: true },
    });
    const known = new Set(found.map((s) => s.id));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length) throw new AppError('NOT_FOUND', `inputs: session ${missing.join(', ')} not found`);
  }
}
