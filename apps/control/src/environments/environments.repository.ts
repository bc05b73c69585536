import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, DATABASE, type Clock } from '@agentry/platform';
import type { Environment, EnvironmentType, Prisma, PrismaClient } from '@agentry/db';
import type { Actor } from '@agentry/contracts';

export interface NewEnvironment {
  id: string;
  name: string;
  description: string | null;
  type: EnvironmentType;
  config: Record<string, unknown>;
  metadata: Record<string, string>;
}

export type EnvironmentChanges = Pick<
  Prisma.EnvironmentUpdateInput,
  'name' | 'description' | 'config' | 'metadata'
>;

@Injectable()
export class EnvironmentsRepository {
  constructor(
    @Inject(DATABASE) private readonly db: PrismaClient,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  create(actor: Actor, data: NewEnvironment): Promise<Environment> {
    return this.db.environment.create({
      data: {
        ...data,
        config: data.config as object,
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
      },
    });
  }

  find(actor: Actor, id: string): Promise<Environment | null> {
    return this.db.environment.findFirst({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
    });
  }

  async update(actor: Actor, id: string, changes: EnvironmentChanges): Promise<void> {
    await this.db.environment.updateMany({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
      data: changes,
    });
  }

  async archive(actor: Actor, id: string): Promise<void> {
    await this.db.environment.updateMany({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId, archivedAt: null },
      data: { archivedAt: this.clock.now() },
    });
  }

  list(
    actor: Actor,
    options: { limit: number; afterId?: string; order: 'asc' | 'desc'; includeArchived: boolean },
  ): Promise<Environment[]> {
    return this.db.environment.findMany({
      where: {
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        ...(options.includeArchived ? {} : { archivedAt: null }),
        ...(options.afterId
          ? { id: options.order === 'asc' ? { gt: options.afterId } : { lt: options.afterId } }
          : {}),
      },
      orderBy: { id: options.order },
      take: options.limit,
    });
  }

  /**
   * Deletes the environment together with its archived sessions, unless a live session still uses it:
   * then nothing is deleted and the count of live sessions is returned. The check and the delete share
   * one transaction; a session created in between makes the delete fail on its foreign key.
   */
  async delete(actor: Actor, id: string): Promise<{ liveSessions: number }> {
    return this.db.$transaction(async (tx) => {
      const liveSessions = await tx.session.count({
        where: { environmentId: id, tenantId: actor.tenantId, archivedAt: null },
      });
      if (liveSessions > 0) return { liveSessions };
      await tx.session.deleteMany({ where: { environmentId: id, tenantId: actor.tenantId } });
      await tx.environment.deleteMany({
        where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
      });
      return { liveSessions: 0 };
    });
  }
}
