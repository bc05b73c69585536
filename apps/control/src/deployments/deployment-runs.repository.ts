import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import { Prisma, type Deployment, type DeploymentRun, type ServiceDatabase } from '@agentry/db';
import type { Actor } from '@agentry/contracts';

export type RunWithDeployment = DeploymentRun & { deployment: Deployment };

export interface RunListOptions {
  limit: number;
  afterId?: string;
  order: 'asc' | 'desc';
  deploymentId?: string;
  hasError?: boolean;
  trigger?: string;
}

/** Runs are visible through their deployment's namespace. */
@Injectable()
export class DeploymentRunsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'control'>) {}

  find(actor: Actor, id: string): Promise<RunWithDeployment | null> {
    return this.db.deploymentRun.findFirst({
      where: { id, tenantId: actor.tenantId, deployment: { namespaceId: actor.namespaceId } },
      include: { deployment: true },
    });
  }

  /** A run row before its session exists; unique per deployment and scheduled time. */
  create(data: Prisma.DeploymentRunUncheckedCreateInput): Promise<DeploymentRun> {
    return this.db.deploymentRun.create({ data });
  }

  async finish(id: string, data: Prisma.DeploymentRunUncheckedUpdateInput): Promise<RunWithDeployment> {
    return this.db.deploymentRun.update({ where: { id }, data, include: { deployment: true } });
  }

  /** Lists finished and running runs; a run still creating its session is not a record yet. */
  list(actor: Actor, options: RunListOptions): Promise<RunWithDeployment[]> {
    return this.db.deploymentRun.findMany({
      where: {
        tenantId: actor.tenantId,
        status: { not: 'pending' },
        deployment: { namespaceId: actor.namespaceId },
        ...(options.deploymentId ? { deploymentId: options.deploymentId } : {}),
        ...(options.trigger ? { trigger: options.trigger } : {}),
        ...(options.hasError === undefined
          ? {}
          : options.hasError
            ? { NOT: { error: { equals: Prisma.AnyNull } } }
            : { error: { equals: Prisma.AnyNull } }),
        ...(options.afterId
          ? { id: options.order === 'asc' ? { gt: options.afterId } : { lt: options.afterId } }
          : {}),
      },
      include: { deployment: true },
      orderBy: { id: options.order },
      take: options.limit,
    });
  }
}
