import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import type { Environment, EnvironmentType, PrismaClient } from '@agentry/db';
import type { Actor } from '@agentry/contracts';

export interface NewEnvironment {
  id: string;
  name: string;
  description: string | null;
  type: EnvironmentType;
  config: Record<string, unknown>;
  metadata: Record<string, string>;
}

@Injectable()
export class EnvironmentsRepository {
  constructor(@Inject(DATABASE) private readonly db: PrismaClient) {}

  create(actor: Actor, data: NewEnvironment): Promise<Environment> {
    return this.db.environment.create({
      data: { ...data, config: data.config as object, tenantId: actor.tenantId, namespaceId: actor.namespaceId },
    });
  }

  find(actor: Actor, id: string): Promise<Environment | null> {
    return this.db.environment.findFirst({ where: { id, tenantId: actor.tenantId, namespaceId: actor.namespaceId } });
  }
}
