import {
  E2bSandbox,
  type E2bConnection,
  type E2bCreateOptions,
  type E2bSandboxOptions,
} from '@agentry/workspace';

/** How the worker reaches E2B: the SDK in production, an in-process fake in tests. */
export interface E2bSandboxFactory {
  create(options: E2bCreateOptions): Promise<E2bSandbox>;
  /** Reconnects to a running or paused sandbox (a paused one resumes), its E2B lifetime extended. */
  connect(
    sandboxId: string,
    options: E2bConnection & E2bSandboxOptions & { sandboxTimeoutMs?: number },
  ): Promise<E2bSandbox>;
  /** Kills a sandbox this worker does not hold (another worker created it). */
  kill(sandboxId: string, connection: E2bConnection): Promise<boolean>;
}

export const E2B_SANDBOX_FACTORY = Symbol('E2B_SANDBOX_FACTORY');

export const sdkE2bSandboxFactory: E2bSandboxFactory = {
  create: (options) => E2bSandbox.create(options),
  connect: (sandboxId, options) => E2bSandbox.connect(sandboxId, options),
  kill: (sandboxId, connection) => E2bSandbox.killById(sandboxId, connection),
};
