import { Controller, HttpCode, Param, Patch, Post, UseFilters } from '@nestjs/common';
import {
  ControlSubjects as S,
  CreateDeploymentRequestSchema,
  DeploymentRunSubjects,
  ListParamsSchema,
  SchedulerSubjects,
  UpdateDeploymentRequestSchema,
  type Actor,
  type Deployment,
} from '@agentry/contracts';
import {
  ApiCreateDeploymentRequestSchema,
  ApiRunDeploymentRequestSchema,
  ApiUpdateDeploymentRequestSchema,
  apiDeploymentToV1,
  apiDeploymentUpdateToV1,
  textToInitialEvents,
  v1DeploymentRunToApi,
  v1DeploymentToApi,
  type ApiCreateDeploymentRequest,
  type ApiRunDeploymentRequest,
  type ApiUpdateDeploymentRequest,
} from '@agentry/contracts/api';
import { Public } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { rpcRoutes } from '../http/rpc-routes.js';
import { parseOrThrow, ZodBody } from '../http/zod-params.js';
import { ApiErrorFilter } from './api-error.filter.js';
import { ApiWebhookErrorFilter } from './api-webhook-error.filter.js';

export const RunBodySchema = ApiRunDeploymentRequestSchema.optional();

/** A list's map passes the index too, which must not be read as a webhook token. */
const deploymentToApi = (deployment: Deployment) => v1DeploymentToApi(deployment);
const answersDeployment = { reply: deploymentToApi };

/**
 * `/api/deployments` over the `/v1` deployment handlers and the scheduler's run path. `triggerType`
 * maps onto CMA: `cron` is a schedule, `webhook` a token (shown once, stored hashed), `manual` neither.
 */
@Controller('api/deployments')
@UseFilters(ApiErrorFilter)
export class ApiDeploymentsController extends rpcRoutes({
  list: {
    route: 'GET',
    subject: S.listDeployments,
    query: ListParamsSchema,
    page: deploymentToApi,
  },
  get: { route: 'GET :id', subject: S.getDeployment, ...answersDeployment },
  /** There is no hard delete: deleting archives, as CMA does. */
  remove: { route: 'DELETE :id', subject: S.archiveDeployment, status: 204 },
  archive: { route: 'POST :id/archive', subject: S.archiveDeployment, ...answersDeployment },
  pause: { route: 'POST :id/pause', subject: S.pauseDeployment, ...answersDeployment },
  unpause: { route: 'POST :id/unpause', subject: S.unpauseDeployment, ...answersDeployment },
}) {
  @Post()
  @HttpCode(200)
  async create(
    @CurrentActor() actor: Actor,
    @ZodBody(ApiCreateDeploymentRequestSchema) body: ApiCreateDeploymentRequest,
  ) {
    const request = parseOrThrow(CreateDeploymentRequestSchema, apiDeploymentToV1(body), 'body');
    const deployment = await this.rpc.request(S.createDeployment, { actor, body: request });
    if (body.triggerType !== 'webhook') return v1DeploymentToApi(deployment);
    const minted = await this.rpc.request(DeploymentRunSubjects.setWebhook, {
      actor,
      id: deployment.id,
      enabled: true,
    });
    return v1DeploymentToApi(minted.deployment, minted.token ?? undefined);
  }

  /** Definition fields, then the webhook (a new token only when switching to `webhook`), then `enabled`. */
  @Patch(':id')
  async update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(ApiUpdateDeploymentRequestSchema) body: ApiUpdateDeploymentRequest,
  ) {
    let deployment = await this.rpc.request(S.getDeployment, { actor, id });
    const patch = parseOrThrow(
      UpdateDeploymentRequestSchema,
      apiDeploymentUpdateToV1(body, deployment),
      'body',
    );
    if (Object.keys(patch).length > 0)
      deployment = await this.rpc.request(S.updateDeployment, { actor, id, body: patch });
    let token: string | undefined;
    const wantsWebhook = body.triggerType === undefined ? undefined : body.triggerType === 'webhook';
    if (wantsWebhook !== undefined && wantsWebhook !== (deployment.webhook_enabled ?? false)) {
      const changed = await this.rpc.request(DeploymentRunSubjects.setWebhook, {
        actor,
        id,
        enabled: wantsWebhook,
      });
      deployment = changed.deployment;
      token = changed.token ?? undefined;
    }
    if (body.enabled !== undefined && body.enabled !== (deployment.status === 'active')) {
      deployment = await this.rpc.request(body.enabled ? S.unpauseDeployment : S.pauseDeployment, {
        actor,
        id,
      });
    }
    return v1DeploymentToApi(deployment, token);
  }

  @Post(':id/run')
  @HttpCode(200)
  async run(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(RunBodySchema) body: ApiRunDeploymentRequest | undefined,
  ) {
    const initial_events = body?.text ? textToInitialEvents(body.text) : undefined;
    return v1DeploymentRunToApi(
      await this.rpc.request(SchedulerSubjects.runDeployment, {
        actor,
        id,
        trigger: 'manual',
        initial_events,
      }),
    );
  }

  /** No credentials but the token itself; an unknown token is 404 and says nothing more. */
  @Public()
  @Post('webhook/:token')
  @HttpCode(200)
  @UseFilters(ApiWebhookErrorFilter)
  async webhook(
    @Param('token') token: string,
    @ZodBody(RunBodySchema) body: ApiRunDeploymentRequest | undefined,
  ) {
    const initial_events = body?.text ? textToInitialEvents(body.text) : undefined;
    return v1DeploymentRunToApi(
      await this.rpc.request(SchedulerSubjects.runDeploymentByWebhook, { token, initial_events }),
    );
  }
}
