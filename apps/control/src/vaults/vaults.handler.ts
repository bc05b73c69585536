import { Controller } from '@nestjs/common';
import { ControlSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { VaultCredentialsService } from './vault-credentials.service.js';
import { VaultsService } from './vaults.service.js';

@Controller()
export class VaultsHandler {
  constructor(
    private readonly vaults: VaultsService,
    private readonly credentials: VaultCredentialsService,
  ) {}

  @RpcHandler(S.createVault)
  create(req: RpcParsedRequest<typeof S.createVault>) {
    return this.vaults.create(req.actor, req.body);
  }

  @RpcHandler(S.getVault)
  get(req: RpcParsedRequest<typeof S.getVault>) {
    return this.vaults.get(req.actor, req.id);
  }

  @RpcHandler(S.updateVault)
  update(req: RpcParsedRequest<typeof S.updateVault>) {
    return this.vaults.update(req.actor, req.id, req.body);
  }

  @RpcHandler(S.listVaults)
  list(req: RpcParsedRequest<typeof S.listVaults>) {
    return this.vaults.list(req.actor, req.query);
  }

  @RpcHandler(S.archiveVault)
  archive(req: RpcParsedRequest<typeof S.archiveVault>) {
    return this.vaults.archive(req.actor, req.id);
  }

  @RpcHandler(S.deleteVault)
  delete(req: RpcParsedRequest<typeof S.deleteVault>) {
    return this.vaults.delete(req.actor, req.id);
  }

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
