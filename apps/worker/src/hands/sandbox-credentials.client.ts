import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentCredentialSubjects, type SandboxCredential } from '@agentry/contracts';
import { LOGGER, RpcClient, type Logger } from '@agentry/platform';

/**
 * Asks control for the `environment_variable` credentials of a session's vaults, for each tool call (a
 * credential changed or archived since the last call is followed). The reply holds secrets: it goes to the
 * session's egress proxy and nowhere else.
 */
@Injectable()
export class SandboxCredentialsClient {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async of(tenantId: string, sessionId: string): Promise<SandboxCredential[]> {
    try {
      return (await this.rpc.request(EnvironmentCredentialSubjects.resolve, { tenantId, sessionId }))
        .credentials;
    } catch (error) {
      // The call still runs; requests from it carry placeholders until the credentials can be loaded.
      this.logger.warn(
        { sessionId, err: (error as Error).message },
        'vault credentials for the sandbox could not be loaded',
      );
      return [];
    }
  }
}
