import { Controller } from '@nestjs/common';
import { ControlSubjects as S } from '@agentry/contracts';
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
@CatalogHandlers(
  'credentials',
  {
    create: S.createCredential,
    get: S.getCredential,
    update: S.updateCredential,
    list: S.listCredentials,
    archive: S.archiveCredential,
    delete: S.deleteCredential,
  },
  { parent: 'vaultId' },
)
export class VaultsHandler {
  constructor(
    readonly vaults: VaultsService,
    readonly credentials: VaultCredentialsService,
  ) {}
}
