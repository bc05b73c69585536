import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  ApiCreateDeploymentRequestSchema,
  ApiDeploymentRunSchema,
  ApiDeploymentSchema,
  ApiRunDeploymentRequestSchema,
  ApiUpdateDeploymentRequestSchema,
  ControlSubjects as S,
  CreateDeploymentRequestSchema,
  DeploymentRunSubjects,
  ListParamsSchema,
  SchedulerSubjects,
  UpdateDeploymentRequestSchema,
  apiDeploymentToV1,
  apiDeploymentUpdateToV1,
  textToInitialEvents,
  v1DeploymentRunToApi,
  v1DeploymentToApi,
  type Actor,
  type ApiCreateDeploymentRequest,
  type ApiRunDeploymentRequest,
  type ApiUpdateDeploymentRequest,
  type ListParams,
} from '@agentry/contracts';
import { Public, RpcClient } from '@agentry/platform';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { DocReply } from '../docs/doc-reply.decorator.js';
import { parseOrThrow, ZodBody, ZodQuery } from '../http/zod-params.js';
import { ApiErrorFilter } from './api-error.filter.js';
import { toApiList } from './api-page.js';
import { ApiWebhookErrorFilter } from './api-webhook-error.filter.js';

const RunBodySchema = ApiRunDeploymentRequestSchema.optional();

/**
 * `/api/deployments` over the `/v1` deployment handlers and the scheduler's run path. `triggerType`
 * maps onto CMA: `cron` is a schedule, `webhook` a token (shown once, stored hashed), `manual` neither.
 */
@Controller('api/deployments')
@UseFilters(ApiErrorFilter)
export class ApiDeploymentsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @DocReply(ApiDeploymentSchema)
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

  @Get()
  @DocReply(ApiDeploymentSchema, { list: true })
  async list(
    @CurrentActor() actor: Actor,
    @ZodQuery(ListParamsSchema) query: ListParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const page = await this.rpc.request(S.listDeployments, { actor, query });
    return toApiList(reply, page, (deployment) => v1DeploymentToApi(deployment));
  }

  @Get(':id')
  @DocReply(ApiDeploymentSchema)
  async get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return v1DeploymentToApi(await this.rpc.request(S.getDeployment, { actor, id }));
  }

  /** Definition fields, then the webhook (a new token only when switching to `webhook`), then `enabled`. */
  @Patch(':id')
  @DocReply(ApiDeploymentSchema)
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

  /** There is no hard delete: deleting archives, as CMA does. */
  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.rpc.request(S.archiveDeployment, { actor, id });
  }

  @Post(':id/archive')
  @HttpCode(200)
  @DocReply(ApiDeploymentSchema)
  async archive(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return v1DeploymentToApi(await this.rpc.request(S.archiveDeployment, { actor, id }));
  }

  @Post(':id/pause')
  @HttpCode(200)
  @DocReply(ApiDeploymentSchema)
  async pause(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return v1DeploymentToApi(await this.rpc.request(S.pauseDeployment, { actor, id }));
  }

  @Post(':id/unpause')
  @HttpCode(200)
  @DocReply(ApiDeploymentSchema)
  async unpause(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return v1DeploymentToApi(await this.rpc.request(S.unpauseDeployment, { actor, id }));
  }

  @Post(':id/run')
  @HttpCode(200)
  @DocReply(ApiDeploymentRunSchema)
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
  @DocReply(ApiDeploymentRunSchema)
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
