import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { Deployment, Prisma, ServiceDatabase } from '@agentry/db';
import type { Actor } from '@agentry/contracts';

export type DeploymentData = Omit<Prisma.DeploymentUncheckedCreateInput, 'id' | 'tenantId' | 'namespaceId'>;

export interface DeploymentListOptions {
  limit: number;
  afterId?: string;
  order: 'asc' | 'desc';
  includeArchived: boolean;
  agentId?: string;
  paused?: boolean;
}

@Injectable()
export class DeploymentsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'control'>) {}

  create(actor: Actor, id: string, data: DeploymentData): Promise<Deployment> {
    return this.db.deployment.create({
      data: { ...data, id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
    });
  }

  find(actor: Actor, id: string): Promise<Deployment | null> {
    return this.db.deployment.findFirst({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
    });
  }

  list(actor: Actor, options: DeploymentListOptions): Promise<Deployment[]> {
    return this.db.deployment.findMany({
      where: {
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        ...(options.includeArchived ? {} : { archivedAt: null }),
        ...(options.agentId ? { agentId: options.agentId } : {}),
        ...(options.paused === undefined ? {} : { pausedAt: options.paused ? { not: null } : null }),
        ...(options.afterId
          ? { id: options.order === 'asc' ? { gt: options.afterId } : { lt: options.afterId } }
          : {}),
      },
      orderBy: { id: options.order },
      take: options.limit,
    });
  }

  update(actor: Actor, id: string, data: Prisma.DeploymentUncheckedUpdateInput): Promise<Deployment> {
    return this.db.deployment.update({
      where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
      data,
    });
  }

  /** The live deployment a webhook token hash belongs to, in any tenant: the token is the credential. */
  findByWebhookHash(hash: string): Promise<Deployment | null> {
    return this.db.deployment.findFirst({ where: { webhookTokenHash: hash, archivedAt: null } });
  }

  /** Head versions of the given agents, for deployments that follow an agent's latest version. */
  async agentHeads(actor: Actor, agentIds: string[]): Promise<Map<string, number>> {
    const agents = await this.db.agent.findMany({
      where: { id: { in: agentIds }, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
      select: { id: true, headVersion: true },
    });
    return new Map(agents.map((a) => [a.id, a.headVersion]));
  }
}
