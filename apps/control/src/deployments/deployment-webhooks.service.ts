import { Injectable } from '@nestjs/common';
import { AppError, type Actor, type Deployment } from '@agentry/contracts';
import { hashSecretToken, newSecretToken } from '../auth/secret-token.js';
import { assertCanWrite } from '../common/access.js';
import { DeploymentsRepository } from './deployments.repository.js';
import { DeploymentsService } from './deployments.service.js';

/** Webhook tokens read `dwh_<random>`, like every other bearer secret control mints. */
const TOKEN_PREFIX = 'dwh';

/** Webhook triggers: the token is shown once when minted; only its hash is stored. */
@Injectable()
export class DeploymentWebhooksService {
  constructor(
    private readonly deployments: DeploymentsService,
    private readonly rows: DeploymentsRepository,
  ) {}

  async set(
    actor: Actor,
    id: string,
    enabled: boolean,
  ): Promise<{ deployment: Deployment; token: string | null }> {
    assertCanWrite(actor);
    const row = await this.deployments.require(actor, id);
    if (row.archivedAt)
      throw new AppError('PRECONDITION_FAILED', `Deployment ${id} is archived and cannot be changed`);
    const secret = enabled ? newSecretToken(TOKEN_PREFIX) : null;
    const updated = await this.rows.update(actor, id, { webhookTokenHash: secret?.hash ?? null });
    return { deployment: await this.deployments.toDto(actor, updated), token: secret?.token ?? null };
  }

  /** The deployment and the actor a run started by this token acts as. */
  async resolve(token: string): Promise<{ deployment_id: string; actor: Actor }> {
    const row = await this.rows.findByWebhookHash(hashSecretToken(token));
    if (!row) throw new AppError('NOT_FOUND', 'No deployment has this webhook token');
    return {
      deployment_id: row.id,
      // The token authorizes runs of this one deployment, as a member of its namespace.
      actor: {
        tenantId: row.tenantId,
        namespaceId: row.namespaceId,
        userId: null,
        apiKeyId: null,
        role: 'member',
      },
    };
  }
}
