import { Controller, UseInterceptors } from '@nestjs/common';
import { ControlStoreSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcBody, RpcEnvelopeInterceptor, RpcHandler } from '@agentry/platform';
import { VaultCredentialsService } from './vault-credentials.service.js';
import { VaultsService } from './vaults.service.js';

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
export class VaultsHandler {
  constructor(
    private readonly vaults: VaultsService,
    private readonly credentials: VaultCredentialsService,
  ) {}

  @RpcHandler(S.createVault)
  create(@RpcBody(S.createVault) req: RpcParsedRequest<typeof S.createVault>) {
    return this.vaults.create(req.actor, req.body);
  }

  @RpcHandler(S.getVault)
  get(@RpcBody(S.getVault) req: RpcParsedRequest<typeof S.getVault>) {
    return this.vaults.get(req.actor, req.id);
  }

  @RpcHandler(S.updateVault)
  update(@RpcBody(S.updateVault) req: RpcParsedRequest<typeof S.updateVault>) {
    return this.vaults.update(req.actor, req.id, req.body);
  }

  @RpcHandler(S.listVaults)
  list(@RpcBody(S.listVaults) req: RpcParsedRequest<typeof S.listVaults>) {
    return this.vaults.list(req.actor, req.query);
  }

  @RpcHandler(S.archiveVault)
  archive(@RpcBody(S.archiveVault) req: RpcParsedRequest<typeof S.archiveVault>) {
    return this.vaults.archive(req.actor, req.id);
  }

  @RpcHandler(S.deleteVault)
  delete(@RpcBody(S.deleteVault) req: RpcParsedRequest<typeof S.deleteVault>) {
    return this.vaults.delete(req.actor, req.id);
  }

  @RpcHandler(S.createCredential)
  createCredential(@RpcBody(S.createCredential) req: RpcParsedRequest<typeof S.createCredential>) {
    return this.credentials.create(req.actor, req.vaultId, req.body);
  }

  @RpcHandler(S.getCredential)
  getCredential(@RpcBody(S.getCredential) req: RpcParsedRequest<typeof S.getCredential>) {
    return this.credentials.get(req.actor, req.vaultId, req.id);
  }

  @RpcHandler(S.updateCredential)
  updateCredential(@RpcBody(S.updateCredential) req: RpcParsedRequest<typeof S.updateCredential>) {
    return this.credentials.update(req.actor, req.vaultId, req.id, req.body);
  }

  @RpcHandler(S.listCredentials)
  listCredentials(@RpcBody(S.listCredentials) req: RpcParsedRequest<typeof S.listCredentials>) {
    return this.credentials.list(req.actor, req.vaultId, req.query);
  }

  @RpcHandler(S.archiveCredential)
  archiveCredential(@RpcBody(S.archiveCredential) req: RpcParsedRequest<typeof S.archiveCredential>) {
    return this.credentials.archive(req.actor, req.vaultId, req.id);
  }

  @RpcHandler(S.deleteCredential)
  deleteCredential(@RpcBody(S.deleteCredential) req: RpcParsedRequest<typeof S.deleteCredential>) {
    return this.credentials.delete(req.actor, req.vaultId, req.id);
  }
}
