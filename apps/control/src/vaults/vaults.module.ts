import { Module } from '@nestjs/common';
import { SecretCipher } from './secret-cipher.js';
import { VaultCredentialsRepository } from './vault-credentials.repository.js';
import { VaultCredentialsService } from './vault-credentials.service.js';
import { VaultsHandler } from './vaults.handler.js';
import { VaultsRepository } from './vaults.repository.js';
import { VaultsService } from './vaults.service.js';

@Module({
  controllers: [VaultsHandler],
  providers: [SecretCipher, VaultsRepository, VaultsService, VaultCredentialsRepository, VaultCredentialsService],
  exports: [VaultsService, VaultCredentialsService],
})
export class VaultsModule {}
