import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { PrismaClient, Session } from '@agentry/db';
import type { Actor } from '@agentry/contracts';

export interface NewSession {
  id: string;
  agentId: string;
  agentVersion: number;
  environmentId: string;
  title: string | null;
  metadata: Record<string, string>;
  spec: Record<string, unknown>;
  resources: unknown[];
  vaultIds: string[];
  budget: Record<string, unknown> | null;
}

@Injectable()
export class SessionsRepository {
  constructor(@Inject(DATABASE) private readonly db: PrismaClient) {}

  create(actor: Actor, data: NewSession): Promise<Session> {
    return this.db.session.create({
      data: {
        ...data,
        spec: data.spec as object,
        resources: data.resources as object[],
        budget: (data.budget ?? undefined) as object | undefined,
        tenantId: actor.tenantId,
        namespaceId: actor.namespaceId,
        createdById: actor.userId,
      },
    });
  }

  find(actor: Actor, id: string): Promise<Session | null> {
    return this.db.session.findFirst({ where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId } });
  }
}
