import { Controller } from '@nestjs/common';
import {
  ControlSubjects as S,
  CreateVaultRequestSchema,
  ListParamsSchema,
  UpdateVaultRequestSchema,
} from '@agentry/contracts';
import { rpcRoutes } from '../http/rpc-routes.js';

@Controller('v1/vaults')
export class VaultsController extends rpcRoutes({
  create: { route: 'POST', subject: S.createVault, body: CreateVaultRequestSchema },
  list: { route: 'GET', subject: S.listVaults, query: ListParamsSchema },
  get: { route: 'GET :id', subject: S.getVault },
  update: { route: 'POST :id', subject: S.updateVault, body: UpdateVaultRequestSchema },
  archive: { route: 'POST :id/archive', subject: S.archiveVault },
  delete: { route: 'DELETE :id', subject: S.deleteVault },
}) {}
