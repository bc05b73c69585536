import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { MOUNTS_ROOT, type SandboxCredential, type SandboxNetworking } from '@agentry/contracts';
import { WORKSPACE_MOUNT } from '@agentry/harness';
import type { Clock } from '@agentry/platform';
import { BubblewrapSandbox } from '@agentry/workspace';
import type { WorkerEnv } from '../config/env.js';
import { MOUNTS_DIR } from '../mounts/session-mounts.js';
import { placeholderEnv } from './credential-swap.js';
import { CA_BUNDLE_NAME, CA_CERT_NAME, CA_MOUNT, type EgressCa } from './egress-ca.js';
import { EgressProxy } from './egress-proxy.js';
import { createPidsCgroup, removePidsCgroup } from './pids-cgroup.js';
import { SandboxShell } from './sandbox-shell.js';
import {
  EGRESS_LOCAL_PORT,
  EGRESS_MOUNT,
  EGRESS_SOCKET,
  SHELL_STATE_MOUNT,
  stdioServerWrapper,
} from './shell-wrapper.js';

/**
 * One session's Hands on this worker: its workspace directory (the file tools' root, bound read-write
 * at /workspace in every command), the bubblewrap sandbox its commands run in, the shell state that
 * carries across calls and the egress proxy that is the sandbox's only way out. With an egress CA the
 * sandbox trusts it (bundles bound in, the usual variables pointing at them), so the proxy can open HTTPS
 * to swap the session's credentials in; the sandbox itself only ever holds their placeholders.
 */
export class SessionSandbox {
  private lastUsed: number;
  private running = 0;

  private constructor(
    readonly key: string,
    readonly fs: BubblewrapSandbox,
    readonly shell: SandboxShell,
    private readonly egress: EgressProxy | null,
    private readonly pidsCgroup: string | undefined,
    private readonly forwarder: string | null,
    private readonly clock: Clock,
  ) {
    this.lastUsed = clock.nowMs();
  }

  static async open(
    key: string,
    dir: string,
    networking: SandboxNetworking,
    config: WorkerEnv,
    clock: Clock,
    egressCredentials: { ca: EgressCa | null; credentials: readonly SandboxCredential[] } = {
      ca: null,
      credentials: [],
    },
  ): Promise<SessionSandbox> {
    if (!existsSync(config.AGENTRY_SANDBOX_BWRAP_PATH))
      throw new Error(`bubblewrap is not installed at ${config.AGENTRY_SANDBOX_BWRAP_PATH}`);
    const workspace = join(dir, 'workspace');
    const state = join(dir, 'shell');
    const mounts = join(dir, MOUNTS_DIR);
    await Promise.all(
      [workspace, state, mounts, config.AGENTRY_SANDBOX_SOCKET_DIR].map((d) =>
        mkdir(d, { recursive: true, mode: 0o711 }),
      ),
    );
    const name = `agentry-${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
    const forwarder =
      config.AGENTRY_SANDBOX_SOCAT_PATH && existsSync(config.AGENTRY_SANDBOX_SOCAT_PATH)
        ? config.AGENTRY_SANDBOX_SOCAT_PATH
        : null;
    // Unix socket paths are short (108 bytes), so the socket lives apart and only the socket itself is bound in.
    const socket = join(config.AGENTRY_SANDBOX_SOCKET_DIR, `${name}.sock`);
    const { ca, credentials } = egressCredentials;
    const egress = forwarder
      ? await EgressProxy.listen(socket, policyOf(networking, config), credentials, ca)
      : null;
    const trusted = egress && ca ? ca : null;
    const pidsCgroup = await createPidsCgroup(
      config.AGENTRY_SANDBOX_PIDS_CGROUP_ROOT,
      name,
      config.AGENTRY_SANDBOX_PROCESSES,
    );
    const proxy = `http://127.0.0.1:${EGRESS_LOCAL_PORT}`;
    const fs = new BubblewrapSandbox({
      root: workspace,
      bwrapPath: config.AGENTRY_SANDBOX_BWRAP_PATH,
      mountPoint: WORKSPACE_MOUNT,
      network: false,
      shell: '/bin/bash',
      defaultTimeoutMs: config.AGENTRY_SANDBOX_DEFAULT_TIMEOUT_MS,
      limits: {
        cpuSeconds: config.AGENTRY_SANDBOX_CPU_SECONDS,
        fileSizeBytes: config.AGENTRY_SANDBOX_FILE_SIZE_BYTES,
        openFiles: 1024,
        ...(config.AGENTRY_SANDBOX_MEMORY_BYTES ? { memoryBytes: config.AGENTRY_SANDBOX_MEMORY_BYTES } : {}),
      },
      tmpfsBytes: config.AGENTRY_SANDBOX_TMP_BYTES,
      readOnlyBinds: config.AGENTRY_SANDBOX_READONLY_PATHS,
      ...(pidsCgroup ? { pidsCgroup } : {}),
      binds: [
        { host: state, sandbox: SHELL_STATE_MOUNT },
        // What the Brain owns (agent files, skills, evicted outputs, plans), kept current by SessionMounts.
        { host: mounts, sandbox: MOUNTS_ROOT, readOnly: true },
        ...(egress ? [{ host: socket, sandbox: `${EGRESS_MOUNT}/${EGRESS_SOCKET}`, readOnly: true }] : []),
        ...(trusted
          ? [
              { host: trusted.certFile, sandbox: `${CA_MOUNT}/${CA_CERT_NAME}`, readOnly: true },
              { host: trusted.bundleFile, sandbox: `${CA_MOUNT}/${CA_BUNDLE_NAME}`, readOnly: true },
            ]
          : []),
      ],
      env: {
        ...(egress
          ? {
              HTTP_PROXY: proxy,
              HTTPS_PROXY: proxy,
              http_proxy: proxy,
              https_proxy: proxy,
              NO_PROXY: 'localhost,127.0.0.1',
              no_proxy: 'localhost,127.0.0.1',
            }
          : {}),
        ...(trusted ? caTrustEnv() : {}),
      },
    });
    const shell = new SandboxShell(fs, state, {
      forwarder,
      maxOutputBytes: config.AGENTRY_SANDBOX_OUTPUT_BYTES,
    });
    shell.setCredentialEnv(placeholderEnv(credentials));
    return new SessionSandbox(key, fs, shell, egress, pidsCgroup, forwarder, clock);
  }

  /** Runs one tool call; the environment's networking and the session's credentials are read for each call, as they may change. */
  async use<T>(
    networking: SandboxNetworking,
    credentials: readonly SandboxCredential[],
    config: WorkerEnv,
    call: () => Promise<T>,
  ): Promise<T> {
    this.egress?.update(policyOf(networking, config), credentials);
    this.shell.setCredentialEnv(placeholderEnv(credentials));
    this.running += 1;
    try {
      return await call();
    } finally {
      this.running -= 1;
      this.lastUsed = this.clock.nowMs();
    }
  }

  /**
   * Starts a stdio server of the session (a tools.json MCP server) in a sandbox like its `bash` calls:
   * same limits, same workspace at /workspace, reaching out only through the session's egress proxy.
   */
  spawnServer(
    command: string,
    args: string[],
    env: Record<string, string>,
  ): Promise<ChildProcessWithoutNullStreams> {
    return this.fs.spawn(stdioServerWrapper(this.forwarder, command, args), { env });
  }

  /** Traffic of a running stdio server counts as use, so its sandbox is not closed under it. */
  touch(): void {
    this.lastUsed = this.clock.nowMs();
  }

  /** Idle: no call running and none finished since `cutoff`. */
  idleSince(cutoff: number): boolean {
    return this.running === 0 && this.lastUsed < cutoff;
  }

  /** Kills what runs and stops the proxy; the files stay (they are the session's state). */
  async close(): Promise<void> {
    await this.fs.dispose();
    await this.egress?.close();
    await removePidsCgroup(this.pidsCgroup);
  }
}

function policyOf(networking: SandboxNetworking, config: WorkerEnv) {
  return { networking, privateAllowed: config.AGENTRY_SANDBOX_EGRESS_PRIVATE_ALLOWED };
}

/** Points the common TLS stacks (OpenSSL, curl, Python requests, Node) at bundles that include the egress CA. */
function caTrustEnv(): Record<string, string> {
  const bundle = `${CA_MOUNT}/${CA_BUNDLE_NAME}`;
  return {
    SSL_CERT_FILE: bundle,
    CURL_CA_BUNDLE: bundle,
    REQUESTS_CA_BUNDLE: bundle,
    NODE_EXTRA_CA_CERTS: `${CA_MOUNT}/${CA_CERT_NAME}`,
  };
}
