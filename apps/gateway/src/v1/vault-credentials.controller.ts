import { Controller } from '@nestjs/common';
import { ControlSubjects as S } from '@agentry/contracts';
import { CreateCredentialRequestSchema, UpdateCredentialRequestSchema } from '@agentry/contracts/v1';
import { rpcRoutes } from '../http/rpc-routes.js';
import { archivableRoutes } from './archivable-routes.js';

@Controller('v1/vaults/:vaultId/credentials')
export class VaultCredentialsController extends rpcRoutes({
  ...archivableRoutes({
    create: S.createCredential,
    createBody: CreateCredentialRequestSchema,
    list: S.listCredentials,
    get: S.getCredential,
    update: S.updateCredential,
    updateBody: UpdateCredentialRequestSchema,
    archive: S.archiveCredential,
    delete: S.deleteCredential,
  }),
}) {}
