import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, RpcClient, CLOCK, type Clock } from '@agentry/platform';
import type { Environment, EnvironmentType, Prisma, ServiceDatabase } from '@agentry/db';
import { SessionRowSubjects, type Actor } from '@agentry/contracts';

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
    @Inject(DATABASE) private readonly db: ServiceDatabase<'control'>,
    private readonly rpc: RpcClient,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  create(actor: Actor, data: NewEnvironment): Promise<Environment> {
    return this.db.environment.create({
      data: {
        ...data,
        config: data.config as Prisma.InputJsonObject,
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
   * then nothing is deleted and the count of live sessions is returned. The sessions belong to the
   * dataplane, which checks and deletes them in one transaction; a session created after that makes the
   * environment's delete fail on its foreign key.
   */
  async delete(actor: Actor, id: string): Promise<{ liveSessions: number }> {
    const { liveSessions } = await this.rpc.request(SessionRowSubjects.deleteForEnvironment, {
      actor,
      environmentId: id,
    });
    if (liveSessions > 0) return { liveSessions };
    await this.db.environment.deleteMany({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
    });
    return { liveSessions: 0 };
  }
}
