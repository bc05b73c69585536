import { Inject, Injectable } from '@nestjs/common';
import type { Actor, DreamStatus } from '@agentry/contracts';
import type { Dream, Prisma, ServiceDatabase } from '@agentry/db';
import { CLOCK, DATABASE, type Clock } from '@agentry/platform';

export interface DreamListOptions {
  limit: number;
  afterId: string | undefined;
  order: 'asc' | 'desc';
  statuses: DreamStatus[] | undefined;
  includeArchived: boolean;
  createdAfter: string | undefined;
  createdBefore: string | undefined;
}

const LIVE: DreamStatus[] = ['pending', 'running'];

/** Dream rows of the actor's namespace; status changes are conditional so a cancel is never overwritten. */
@Injectable()
export class DreamsRepository {
  constructor(
    @Inject(DATABASE) private readonly db: ServiceDatabase<'control'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  create(data: Prisma.DreamUncheckedCreateInput): Promise<Dream> {
    return this.db.dream.create({ data });
  }

  find(actor: Actor, id: string): Promise<Dream | null> {
    return this.db.dream.findFirst({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
    });
  }

  findForJob(tenantId: string, id: string): Promise<Dream | null> {
    return this.db.dream.findFirst({ where: { id, tenantId } });
  }

  /** A pending or running dream that writes into `storeId`, if any. */
  liveWriterOf(tenantId: string, storeId: string): Promise<Dream | null> {
    return this.db.dream.findFirst({
      where: {
        tenantId,
        outputStoreId: storeId,
        status: { in: LIVE },
        outputBehavior: { path: ['type'], equals: 'update_existing' },
      },
    });
  }

  list(actor: Actor, o: DreamListOptions): Promise<Dream[]> {
    return this.db.dream.findMany({
      where: {
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        ...(o.includeArchived ? {} : { archivedAt: null }),
        ...(o.statuses ? { status: { in: o.statuses } } : {}),
        ...(o.createdAfter || o.createdBefore
          ? {
              createdAt: {
                ...(o.createdAfter ? { gt: new Date(o.createdAfter) } : {}),
                ...(o.createdBefore ? { lt: new Date(o.createdBefore) } : {}),
              },
            }
          : {}),
        ...(o.afterId ? { id: o.order === 'asc' ? { gt: o.afterId } : { lt: o.afterId } } : {}),
      },
      orderBy: { id: o.order },
      take: o.limit,
    });
  }

  /** Moves the dream from one of `from` to `status` with `data`; null when it had already moved on. */
  async transition(
    id: string,
    from: DreamStatus[],
    status: DreamStatus,
    data: Prisma.DreamUncheckedUpdateInput = {},
  ): Promise<Dream | null> {
    const ended = status === 'completed' || status === 'failed' || status === 'canceled';
    const { count } = await this.db.dream.updateMany({
      where: { id, status: { in: from } },
      data: { ...data, status, ...(ended ? { endedAt: this.clock.now() } : {}) },
    });
    return count === 1 ? this.db.dream.findUnique({ where: { id } }) : null;
  }

  update(id: string, data: Prisma.DreamUncheckedUpdateInput): Promise<Dream> {
    return this.db.dream.update({ where: { id }, data });
  }

  archive(id: string): Promise<Dream> {
    return this.db.dream.update({ where: { id }, data: { archivedAt: this.clock.now() } });
  }
}
