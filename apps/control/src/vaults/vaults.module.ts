import { Module } from '@nestjs/common';
import { ConsentVaults } from './consent-vaults.js';
import { EnvironmentCredentialsHandler } from './environment-credentials.handler.js';
import { EnvironmentCredentialsResolver } from './environment-credentials.resolver.js';
import { McpCredentialsHandler } from './mcp-credentials.handler.js';
import { McpCredentialsResolver } from './mcp-credentials.resolver.js';
import { McpOAuthRefresher } from './mcp-oauth-refresher.js';
import { SecretCipher } from './secret-cipher.js';
import { SessionCredentialsRepository } from './session-credentials.repository.js';
import { VaultCredentialsRepository } from './vault-credentials.repository.js';
import { VaultCredentialsService } from './vault-credentials.service.js';
import { VaultsHandler } from './vaults.handler.js';
import { VaultsRepository } from './vaults.repository.js';
import { VaultsService } from './vaults.service.js';

@Module({
  controllers: [VaultsHandler, McpCredentialsHandler, EnvironmentCredentialsHandler],
  providers: [
    SecretCipher,
    VaultsRepository,
    VaultsService,
    VaultCredentialsRepository,
    VaultCredentialsService,
    SessionCredentialsRepository,
    McpCredentialsResolver,
    McpOAuthRefresher,
    EnvironmentCredentialsResolver,
    ConsentVaults,
  ],
  exports: [VaultsService, VaultCredentialsService, SecretCipher],
})
export class VaultsModule {}
