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
import type { SessionCgroup } from './cgroups/session-cgroup.js';
import type { SandboxCaps } from './sandbox-caps.js';
import { WorkspaceQuota } from './workspace-quota.js';
import { onPath } from './hands-prerequisites.js';
import { SandboxShell } from './sandbox-shell.js';
import { StepTimings } from './step-timings.js';
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
interface SandboxEnvironment {
  ca: EgressCa | null;
  credentials: readonly SandboxCredential[];
  /** The root filesystem (the platform's userland, or a package layer over it); null: the host's /usr. */
  rootfs: string | null;
  /** Hosts a `limited` environment reaches besides its own list (the registries, with `allow_package_managers`). */
  extraAllowedHosts?: readonly string[];
}

export interface SandboxOpenOptions {
  /** What the environment gives the sandbox; still being looked up, the cgroup and quota are made meanwhile. */
  environment: SandboxEnvironment | Promise<SandboxEnvironment>;
  caps: SandboxCaps;
  /** Where the open's steps are timed (the worker's debug log profiles a cold start). */
  timings?: StepTimings;
  /** Settles once nothing writes into the plain workspace any more (its restore): the quota mounts over it. */
  workspaceReady?: Promise<unknown>;
}

/** The sandbox could not be given what its environment asks for: every call answers with why. */
export class SandboxUnavailableError extends Error {}

export class SessionSandbox {
  private lastUsed: number;
  private running = 0;

  private constructor(
    readonly key: string,
    readonly fs: BubblewrapSandbox,
    readonly shell: SandboxShell,
    private readonly egress: EgressProxy | null,
    private readonly cgroup: SessionCgroup | null,
    private readonly quota: WorkspaceQuota | null,
    private readonly forwarder: string | null,
    private readonly clock: Clock,
    private readonly extraAllowedHosts: readonly string[],
    /** Why the sandbox cannot have the network its environment asks for, if it cannot. */
    private readonly unavailable: string | null,
  ) {
    this.lastUsed = clock.nowMs();
  }

  static async open(
    key: string,
    dir: string,
    networking: SandboxNetworking,
    config: WorkerEnv,
    clock: Clock,
    options: SandboxOpenOptions,
  ): Promise<SessionSandbox> {
    if (!existsSync(config.AGENTRY_SANDBOX_BWRAP_PATH))
      throw new SandboxUnavailableError(
        `bubblewrap is not installed on this worker (${config.AGENTRY_SANDBOX_BWRAP_PATH})`,
      );
    const { caps } = options;
    const timings = options.timings ?? new StepTimings();
    const looked = Promise.resolve(options.environment);
    // Read by the egress step below; if the open fails before that, its failure must not go unhandled.
    looked.catch(() => undefined);
    const workspace = join(dir, 'workspace');
    const state = join(dir, 'shell');
    const mounts = join(dir, MOUNTS_DIR);
    await timings.time('dirs', () =>
      Promise.all(
        [workspace, state, mounts, config.AGENTRY_SANDBOX_SOCKET_DIR].map((d) =>
          mkdir(d, { recursive: true, mode: 0o711 }),
        ),
      ),
    );
    const name = `agentry-${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
    // Unix socket paths are short (108 bytes), so the socket lives apart and only the socket itself is bound in.
    const socket = join(config.AGENTRY_SANDBOX_SOCKET_DIR, `${name}.sock`);
    await caps.prepare();
    const images = caps.workspaceImages;
    // The three are independent; the workspace is mounted over only once whatever writes into it is done.
    const [{ environment, forwarder, egress }, cgroup, quota] = await allOrUndone([
      timings
        .time('environment', () => looked)
        .then((environment) =>
          timings.time('egress', async () => {
            const forwarder = findForwarder(config.AGENTRY_SANDBOX_SOCAT_PATH, environment.rootfs);
            const policy = policyOf(networking, config, environment.extraAllowedHosts ?? []);
            const egress =
              forwarder.path !== null
                ? await EgressProxy.listen(socket, policy, environment.credentials, environment.ca)
                : null;
            return { environment, forwarder, egress };
          }),
        ),
      timings.time('cgroup', () => caps.cgroupFor(name)),
      timings
        .time('restore', () => options.workspaceReady ?? Promise.resolve())
        .then(() =>
          images ? timings.time('quota', () => WorkspaceQuota.mount(dir, workspace, images)) : null,
        ),
    ] as const);
    const { rootfs, ca, credentials } = environment;
    const extraAllowedHosts = environment.extraAllowedHosts ?? [];
    const trusted = egress && ca ? ca : null;
    const proxy = `http://127.0.0.1:${EGRESS_LOCAL_PORT}`;
    const fs = new BubblewrapSandbox({
      root: workspace,
      bwrapPath: config.AGENTRY_SANDBOX_BWRAP_PATH,
      mountPoint: WORKSPACE_MOUNT,
      network: false,
      shell: '/bin/bash',
      defaultTimeoutMs: config.AGENTRY_SANDBOX_DEFAULT_TIMEOUT_MS,
      limits: caps.rlimits(),
      tmpfsBytes: config.AGENTRY_SANDBOX_TMP_BYTES,
      readOnlyBinds: config.AGENTRY_SANDBOX_READONLY_PATHS,
      ...(cgroup ? { cgroups: cgroup.dirs } : {}),
      ...(rootfs ? { rootfs } : {}),
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
        ...(rootfs ? userlandEnv(config) : {}),
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
    const shell = new SandboxShell(
      fs,
      state,
      { forwarder: forwarder.path, maxOutputBytes: config.AGENTRY_SANDBOX_OUTPUT_BYTES },
      cgroup
        ? {
            cgroup,
            memoryBytes: config.AGENTRY_SANDBOX_MEMORY_BYTES,
            processes: config.AGENTRY_SANDBOX_PROCESSES,
          }
        : null,
    );
    shell.setCredentialEnv(placeholderEnv(credentials));
    return new SessionSandbox(
      key,
      fs,
      shell,
      egress,
      cgroup,
      quota,
      forwarder.path,
      clock,
      extraAllowedHosts,
      forwarder.problem,
    );
  }

  /**
   * Runs one tool call; the environment's networking and the session's credentials are read for each call,
   * as they may change (`credentials` null: the call starts no process, the sandbox keeps those it has).
   */
  async use<T>(
    networking: SandboxNetworking,
    credentials: readonly SandboxCredential[] | null,
    config: WorkerEnv,
    call: () => Promise<T>,
  ): Promise<T> {
    if (this.unavailable) throw new SandboxUnavailableError(this.unavailable);
    if (credentials) {
      this.egress?.update(policyOf(networking, config, this.extraAllowedHosts), credentials);
      this.shell.setCredentialEnv(placeholderEnv(credentials));
    }
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
    await this.cgroup?.remove();
    await this.quota?.release();
  }
}

/**
 * The open's parallel steps, each an egress proxy, a cgroup or a quota mount: if one fails, those that
 * succeeded are undone (no listening socket, cgroup or mount left behind) and the first failure is thrown.
 */
async function allOrUndone<E extends { egress: EgressProxy | null }>(
  steps: readonly [Promise<E>, Promise<SessionCgroup | null>, Promise<WorkspaceQuota | null>],
): Promise<[E, SessionCgroup | null, WorkspaceQuota | null]> {
  const [egress, cgroup, quota] = await Promise.allSettled(steps);
  if (egress.status === 'fulfilled' && cgroup.status === 'fulfilled' && quota.status === 'fulfilled')
    return [egress.value, cgroup.value, quota.value];
  if (egress.status === 'fulfilled') await egress.value.egress?.close().catch(() => undefined);
  if (cgroup.status === 'fulfilled') await cgroup.value?.remove().catch(() => undefined);
  if (quota.status === 'fulfilled') await quota.value?.release().catch(() => undefined);
  throw [egress, cgroup, quota].flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []))[0];
}

function policyOf(networking: SandboxNetworking, config: WorkerEnv, extraAllowedHosts: readonly string[]) {
  const widened: SandboxNetworking =
    networking.type === 'limited' && extraAllowedHosts.length > 0
      ? { ...networking, allowedHosts: [...networking.allowedHosts, ...extraAllowedHosts] }
      : networking;
  return { networking: widened, privateAllowed: config.AGENTRY_SANDBOX_EGRESS_PRIVATE_ALLOWED };
}

/**
 * The egress forwarder the sandbox runs: `socat` from the sandbox's own userland (or, on the host's /usr,
 * from the worker's PATH). Missing, the sandbox cannot reach the network its environment asks for, and
 * `problem` says so; configured empty, the installation chose sandboxes without any network.
 */
function findForwarder(
  configured: string,
  rootfs: string | null,
): { path: string | null; problem: string | null } {
  if (configured === '') return { path: null, problem: null };
  const found = rootfs
    ? ['/usr/bin', '/usr/local/bin', '/bin']
        .map((dir) => (configured.includes('/') ? configured : `${dir}/${configured}`))
        .find((path) => existsSync(join(rootfs, path)))
    : onPath(configured, process.env.PATH);
  if (found) return { path: found, problem: null };
  const where = rootfs
    ? "in the sandbox's userland"
    : "on this worker's PATH (install Debian's socat package)";
  return {
    path: null,
    problem: `The sandbox has no network: ${configured}, the egress forwarder, is not installed ${where}, so this environment's networking cannot be provided; the call did not run`,
  };
}

/** The userland's tools find globally installed npm packages and use the configured registries. */
function userlandEnv(config: WorkerEnv): Record<string, string> {
  return {
    NODE_PATH: '/usr/local/lib/node_modules:/usr/lib/nodejs:/usr/share/nodejs',
    npm_config_registry: config.AGENTRY_PACKAGES_NPM_REGISTRY,
    PIP_INDEX_URL: config.AGENTRY_PACKAGES_PIP_INDEX_URL,
    GOPROXY: config.AGENTRY_PACKAGES_GOPROXY,
  };
}

/**
 * Points the common TLS stacks (OpenSSL, curl, git, pip, Node) at the worker's trust store with the egress CA
 * appended: Node adds it to its own roots, so an installation's CAs count there too.
 */
function caTrustEnv(): Record<string, string> {
  const bundle = `${CA_MOUNT}/${CA_BUNDLE_NAME}`;
  return {
    SSL_CERT_FILE: bundle,
    CURL_CA_BUNDLE: bundle,
    REQUESTS_CA_BUNDLE: bundle,
    PIP_CERT: bundle,
    GIT_SSL_CAINFO: bundle,
    NODE_EXTRA_CA_CERTS: bundle,
  };
}
