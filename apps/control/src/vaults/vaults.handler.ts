import { Controller } from '@nestjs/common';
import { ControlStoreSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { VaultCredentialsService } from './vault-credentials.service.js';
import { VaultsService } from './vaults.service.js';
import { CatalogHandlers } from '../common/catalog-handlers.decorator.js';

@Controller()
@CatalogHandlers('vaults', {
  create: S.createVault,
  get: S.getVault,
  update: S.updateVault,
  list: S.listVaults,
  archive: S.archiveVault,
  delete: S.deleteVault,
})
export class VaultsHandler {
  constructor(
    readonly vaults: VaultsService,
    private readonly credentials: VaultCredentialsService,
  ) {}

  @RpcHandler(S.createCredential)
  createCredential(req: RpcParsedRequest<typeof S.createCredential>) {
    return this.credentials.create(req.actor, req.vaultId, req.body);
  }

  @RpcHandler(S.getCredential)
  getCredential(req: RpcParsedRequest<typeof S.getCredential>) {
    return this.credentials.get(req.actor, req.vaultId, req.id);
  }

  @RpcHandler(S.updateCredential)
  updateCredential(req: RpcParsedRequest<typeof S.updateCredential>) {
    return this.credentials.update(req.actor, req.vaultId, req.id, req.body);
  }

  @RpcHandler(S.listCredentials)
  listCredentials(req: RpcParsedRequest<typeof S.listCredentials>) {
    return this.credentials.list(req.actor, req.vaultId, req.query);
  }

  @RpcHandler(S.archiveCredential)
  archiveCredential(req: RpcParsedRequest<typeof S.archiveCredential>) {
    return this.credentials.archive(req.actor, req.vaultId, req.id);
  }

  @RpcHandler(S.deleteCredential)
  deleteCredential(req: RpcParsedRequest<typeof S.deleteCredential>) {
    return this.credentials.delete(req.actor, req.vaultId, req.id);
  }
}
