import { Controller, HttpCode, Param, Patch, Post, UseFilters } from '@nestjs/common';
import {
  ControlSubjects as S,
  CreateVaultRequestSchema,
  ListParamsSchema,
  MetadataPatchSchema,
  MetadataSchema,
  UpdateVaultRequestSchema,
  type Actor,
} from '@agentry/contracts';
import { z } from 'zod';
import { CurrentActor } from '../auth/current-actor.decorator.js';
import { rpcRoutes } from '../http/rpc-routes.js';
import { parseOrThrow, ZodBody } from '../http/zod-params.js';
import { camelKeys } from './api-case.js';
import { ApiErrorFilter } from './api-error.filter.js';

export const ApiCreateVaultSchema = z.strictObject({
  displayName: z.string(),
  metadata: MetadataSchema.optional(),
});
export const ApiUpdateVaultSchema = z.strictObject({
  displayName: z.string().nullish(),
  metadata: MetadataPatchSchema.nullish(),
});
type ApiCreateVault = z.infer<typeof ApiCreateVaultSchema>;
type ApiUpdateVault = z.infer<typeof ApiUpdateVaultSchema>;

/** `/api/vaults`: vaults in camelCase over the `/v1` vault handlers; credentials stay on `/v1`. */
@Controller('api/vaults')
@UseFilters(ApiErrorFilter)
export class ApiVaultsController extends rpcRoutes({
  list: { route: 'GET', subject: S.listVaults, query: ListParamsSchema, page: camelKeys },
  get: { route: 'GET :id', subject: S.getVault, reply: camelKeys },
  archive: { route: 'POST :id/archive', subject: S.archiveVault, reply: camelKeys },
  remove: { route: 'DELETE :id', subject: S.deleteVault, status: 204 },
}) {
  @Post()
  @HttpCode(200)
  async create(@CurrentActor() actor: Actor, @ZodBody(ApiCreateVaultSchema) body: ApiCreateVault) {
    const request = parseOrThrow(
      CreateVaultRequestSchema,
      { display_name: body.displayName, metadata: body.metadata },
      'body',
    );
    return camelKeys(await this.rpc.request(S.createVault, { actor, body: request }));
  }

  @Patch(':id')
  async update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @ZodBody(ApiUpdateVaultSchema) body: ApiUpdateVault,
  ) {
    const request = parseOrThrow(
      UpdateVaultRequestSchema,
      { display_name: body.displayName, metadata: body.metadata },
      'body',
    );
    return camelKeys(await this.rpc.request(S.updateVault, { actor, id, body: request }));
  }
}
