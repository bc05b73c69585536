import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, EnvironmentCredentialSubjects, type SandboxCredential } from '@agentry/contracts';
import { LOGGER, RpcClient, type Logger } from '@agentry/platform';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';

/** The longest one attempt waits for control: a request lost to a NATS restart is sent again soon. */
const ATTEMPT_TIMEOUT_MS = 2_000;
const RETRY_PAUSE_MS = 250;

/** Control could not say which credentials the session's sandbox gets: the call must not run without them. */
export class CredentialsUnavailableError extends Error {
  constructor(readonly sessionId: string) {
    super(`the vault credentials of session ${sessionId} could not be loaded`);
    this.name = 'CredentialsUnavailableError';
  }
}

/**
 * Asks control for the `environment_variable` credentials of a session's vaults, for each tool call (a
 * credential changed or archived since the last call is followed). The reply holds secrets: it goes to the
 * session's egress proxy and nowhere else. A request that goes unanswered (NATS or control restarting) is
 * sent again for up to AGENTRY_CREDENTIALS_WAIT_MS; after that the call fails rather than run without
 * its credentials.
 */
@Injectable()
export class SandboxCredentialsClient {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(WORKER_CONFIG) private readonly config: WorkerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async of(tenantId: string, sessionId: string): Promise<SandboxCredential[]> {
    const deadline = performance.now() + this.config.AGENTRY_CREDENTIALS_WAIT_MS;
    for (let attempt = 1; ; attempt += 1) {
      const left = deadline - performance.now();
      try {
        const reply = await this.rpc.request(
          EnvironmentCredentialSubjects.resolve,
          { tenantId, sessionId },
          { timeoutMs: Math.max(100, Math.min(ATTEMPT_TIMEOUT_MS, left)) },
        );
        return reply.credentials;
      } catch (error) {
        const retryable = AppError.is(error) && error.retryable;
        if (!retryable || deadline - performance.now() <= RETRY_PAUSE_MS) {
          this.logger.warn(
            { sessionId, attempt, err: (error as Error).message },
            'vault credentials for the sandbox could not be loaded: the call does not run',
          );
          throw new CredentialsUnavailableError(sessionId);
        }
        await sleep(RETRY_PAUSE_MS);
      }
    }
  }
}
