import type { SandboxNetworking } from '@agentry/contracts';
import type { Clock } from '@agentry/platform';
import type { WorkerEnv } from '../config/env.js';
import type { SandboxCaps } from '../sandbox/sandbox-caps.js';
import { SessionSandbox } from '../sandbox/session-sandbox.js';

/** The customer's machine is the trust boundary here: the sandbox may reach what the machine may reach. */
const NETWORKING: SandboxNetworking = { type: 'unrestricted', allowedHosts: [] };

/**
 * One claimed session's sandbox, opened by its first tool call and closed when the session's runner
 * stops (the SDK builds the tools synchronously, before any call needs the sandbox).
 */
export class SessionSandboxLease {
  private opening: Promise<SessionSandbox> | null = null;

  constructor(
    private readonly sessionId: string,
    private readonly dir: string,
    private readonly config: WorkerEnv,
    private readonly clock: Clock,
    private readonly caps: SandboxCaps,
  ) {}

  async use<T>(call: (sandbox: SessionSandbox) => Promise<T>): Promise<T> {
    // The customer's own machine: its own tools (the host's /usr), no image to build.
    this.opening ??= SessionSandbox.open(this.sessionId, this.dir, NETWORKING, this.config, this.clock, {
      environment: { ca: null, credentials: [], rootfs: null },
      caps: this.caps,
    }).then(async (sandbox) => {
      // Each session starts its `bash` afresh: cwd and exports do not leak from the previous one.
      await sandbox.shell.reset();
      return sandbox;
    });
    const sandbox = await this.opening;
    return sandbox.use(NETWORKING, [], this.config, () => call(sandbox));
  }

  async close(): Promise<void> {
    const opening = this.opening;
    this.opening = null;
    await (await opening?.catch(() => null))?.close();
  }
}
