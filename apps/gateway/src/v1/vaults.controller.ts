import { Controller } from '@nestjs/common';
import { ControlSubjects as S } from '@agentry/contracts';
import { CreateVaultRequestSchema, UpdateVaultRequestSchema } from '@agentry/contracts/v1';
import { rpcRoutes } from '../http/rpc-routes.js';
import { archivableRoutes } from './archivable-routes.js';

@Controller('v1/vaults')
export class VaultsController extends rpcRoutes({
  ...archivableRoutes({
    create: S.createVault,
    createBody: CreateVaultRequestSchema,
    list: S.listVaults,
    get: S.getVault,
    update: S.updateVault,
    updateBody: UpdateVaultRequestSchema,
    archive: S.archiveVault,
    delete: S.deleteVault,
  }),
}) {}
