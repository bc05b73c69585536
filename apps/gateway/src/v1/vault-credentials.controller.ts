import { Controller } from '@nestjs/common';
import {
  ControlSubjects as S,
  CreateCredentialRequestSchema,
  ListParamsSchema,
  UpdateCredentialRequestSchema,
} from '@agentry/contracts';
import { rpcRoutes } from '../http/rpc-routes.js';

@Controller('v1/vaults/:vaultId/credentials')
export class VaultCredentialsController extends rpcRoutes({
  create: { route: 'POST', subject: S.createCredential, body: CreateCredentialRequestSchema },
  list: { route: 'GET', subject: S.listCredentials, query: ListParamsSchema },
  get: { route: 'GET :id', subject: S.getCredential },
  update: { route: 'POST :id', subject: S.updateCredential, body: UpdateCredentialRequestSchema },
  archive: { route: 'POST :id/archive', subject: S.archiveCredential },
  delete: { route: 'DELETE :id', subject: S.deleteCredential },
}) {}
