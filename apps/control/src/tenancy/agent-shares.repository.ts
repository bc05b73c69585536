import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { Agent, AgentShare, ServiceDatabase } from '@agentry/db';

@Injectable()
export class AgentSharesRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'control'>) {}

  findAgent(tenantId: string, agentId: string): Promise<Agent | null> {
    return this.db.agent.findFirst({ where: { id: agentId, tenantId } });
  }

  userExists(tenantId: string, userId: string): Promise<boolean> {
    return this.db.user.count({ where: { id: userId, tenantId, disabledAt: null } }).then((n) => n > 0);
  }

  upsert(data: {
    id: string;
    tenantId: string;
    agentId: string;
    granteeUserId: string;
    permission: string;
  }): Promise<AgentShare> {
    return this.db.agentShare.upsert({
      where: { agentId_granteeUserId: { agentId: data.agentId, granteeUserId: data.granteeUserId } },
      update: { permission: data.permission },
      create: data,
    });
  }

  async delete(tenantId: string, agentId: string, granteeUserId: string): Promise<boolean> {
    const { count } = await this.db.agentShare.deleteMany({ where: { tenantId, agentId, granteeUserId } });
    return count > 0;
  }

  list(tenantId: string, agentId: string): Promise<AgentShare[]> {
    return this.db.agentShare.findMany({ where: { tenantId, agentId }, orderBy: { createdAt: 'asc' } });
  }

  find(tenantId: string, agentId: string, granteeUserId: string): Promise<AgentShare | null> {
    return this.db.agentShare.findFirst({ where: { tenantId, agentId, granteeUserId } });
  }
}
