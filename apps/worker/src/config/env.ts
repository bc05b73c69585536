import { BaseEnvSchema, loadConfig } from '@agentry/platform';
import { z } from 'zod';

const optionalBytes = z.coerce.number().int().positive().optional();
const hostPortList = z
  .string()
  .default('')
  .transform(
    (v) =>
      new Set(
        v
          .split(',')
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean),
      ),
  );

const commaList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
const httpUrl = z
  .string()
  .url()
  .refine((v) => /^https?:\/\//.test(v), 'must be an http(s) URL');

export const WorkerEnvSchema = BaseEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8083),
  /** Where `local` and `sandbox` sessions keep their workspace and shell state on this node. */
  AGENTRY_WORKDIR_ROOT: z.string().min(1).default('/var/lib/agentry/workdirs'),
  /** How long a finished tool result is remembered, so a redelivered call is answered, not re-run. */
  AGENTRY_TOOL_RESULT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(24 * 3600),
  /** Where the per-session egress proxy sockets live (unix socket paths must stay under 108 bytes). */
  AGENTRY_SANDBOX_SOCKET_DIR: z.string().min(1).max(60).default('/tmp/agentry-egress'),
  AGENTRY_SANDBOX_BWRAP_PATH: z.string().min(1).default('/usr/bin/bwrap'),
  /**
   * Forwards the sandbox's loopback proxy port to the egress socket: a name looked up in the sandbox's
   * userland (with `AGENTRY_USERLAND=host`, on this worker's PATH) or a path. Missing: every call fails and
   * says why; empty: the installation runs sandboxes without any network.
   */
  AGENTRY_SANDBOX_SOCAT_PATH: z.string().default('socat'),
  /** CPU seconds one process of a `bash` call may use (RLIMIT_CPU). */
  AGENTRY_SANDBOX_CPU_SECONDS: z.coerce.number().int().positive().default(600),
  /** Address space of each process (RLIMIT_AS); unset = unlimited, as runtimes reserve large ranges. */
  AGENTRY_SANDBOX_ADDRESS_SPACE_BYTES: optionalBytes,
  /** Memory of one session's sandbox (its processes and its /tmp), through a memory cgroup. */
  AGENTRY_SANDBOX_MEMORY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(8 * 1024 ** 3),
  /** Disk space of one session's workspace, through a quota'd filesystem image where the worker can mount one. */
  AGENTRY_SANDBOX_DISK_BYTES: z.coerce
    .number()
    .int()
    .nonnegative()
    .default(10 * 1024 ** 3),
  /** Blank workspace images this worker keeps made ahead (see WorkspaceImagePool); 0: each open makes its own. */
  AGENTRY_SANDBOX_WORKSPACE_IMAGES_READY: z.coerce.number().int().nonnegative().max(64).default(2),
  /** CPUs one session may use at once (a CFS quota); its share against other sessions is equal. */
  AGENTRY_SANDBOX_CPUS: z.coerce.number().positive().default(2),
  /** Largest file a command may write (RLIMIT_FSIZE). */
  AGENTRY_SANDBOX_FILE_SIZE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024 * 1024),
  /** Processes of one session at once (pids cgroup; RLIMIT_NPROC per call where there is none). */
  AGENTRY_SANDBOX_PROCESSES: z.coerce.number().int().positive().default(512),
  /**
   * Where session cgroups are made: `auto` (under this worker's own cgroup in each delegated v1 controller,
   * or in its cgroup v2 directory), a directory, or `none`.
   */
  AGENTRY_SANDBOX_CGROUP: z.string().default('auto'),
  /**
   * The sandbox's root filesystem: `build` (the platform's Debian userland, built by mmdebstrap into
   * AGENTRY_USERLAND_CACHE_DIR), a directory holding a prepared one (an image's), or `host` (this host's
   * /usr read-only: self-hosted workers on the customer's own machine).
   */
  AGENTRY_USERLAND: z.string().min(1).default('build'),
  /** Where built userlands and package layers are kept (survives restarts; may be a volume shared by workers). */
  AGENTRY_USERLAND_CACHE_DIR: z.string().min(1).default('/var/cache/agentry/userland'),
  AGENTRY_USERLAND_SUITE: z
    .string()
    .regex(/^[a-z][a-z0-9-]*$/)
    .default('trixie'),
  /** The Debian archive the userland and `apt` packages come from (a mirror is fine). */
  AGENTRY_USERLAND_MIRROR: httpUrl.default('http://deb.debian.org/debian'),
  /** The suite's security archive; empty: none. */
  AGENTRY_USERLAND_SECURITY_MIRROR: z
    .union([z.literal(''), httpUrl])
    .default('http://deb.debian.org/debian-security'),
  /** Debian packages added to the standard toolchain of every sandbox (comma-separated). */
  AGENTRY_USERLAND_EXTRA_PACKAGES: commaList,
  AGENTRY_USERLAND_MMDEBSTRAP_PATH: z.string().min(1).default('mmdebstrap'),
  /** Registries environment `packages` are installed from, and the hosts `allow_package_managers` opens. */
  AGENTRY_PACKAGES_NPM_REGISTRY: httpUrl.default('https://registry.npmjs.org/'),
  AGENTRY_PACKAGES_PIP_INDEX_URL: httpUrl.default('https://pypi.org/simple'),
  AGENTRY_PACKAGES_CARGO_INDEX: z.string().min(1).default('sparse+https://index.crates.io/'),
  AGENTRY_PACKAGES_GEM_SOURCE: httpUrl.default('https://rubygems.org/'),
  AGENTRY_PACKAGES_GOPROXY: httpUrl.default('https://proxy.golang.org'),
  /** A package layer build that runs longer than this fails. */
  AGENTRY_PACKAGES_BUILD_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(20 * 60_000),
  /**
   * Host directories bound read-only at the same path into every sandbox (comma-separated): toolchains or
   * stdio MCP servers an installation provides under /opt, say. /usr is always there.
   */
  AGENTRY_SANDBOX_READONLY_PATHS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((paths) => paths.every((p) => p.startsWith('/')), 'every path must be absolute'),
  /** Size of the sandbox's private /tmp (memory-backed). */
  AGENTRY_SANDBOX_TMP_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(256 * 1024 * 1024),
  /** Output a `bash` call returns at most (head and tail kept). */
  AGENTRY_SANDBOX_OUTPUT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(100 * 1024),
  /** A `bash` call without `timeout_ms` runs this long at most. */
  AGENTRY_SANDBOX_DEFAULT_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  /** A session's sandbox is closed (egress proxy stopped; files kept) after this long without a call. */
  AGENTRY_SANDBOX_IDLE_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60_000),
  /**
   * `host:port` pairs a sandbox may reach although they are private or loopback (an on-premises
   * service, a test server). Everything else private stays unreachable whatever the networking.
   */
  AGENTRY_SANDBOX_EGRESS_PRIVATE_ALLOWED: hostPortList,
  /**
   * The installation's sandbox egress CA (PEM certificate and key). Sandboxes trust it, so the egress proxy
   * can open HTTPS to swap vault credentials in. Absent files are generated and kept; point every worker of
   * an installation at the same pair (e.g. a mounted secret). Default: `<AGENTRY_WORKDIR_ROOT>/.egress-ca/`.
   */
  AGENTRY_SANDBOX_CA_CERT_FILE: z.string().min(1).optional(),
  AGENTRY_SANDBOX_CA_KEY_FILE: z.string().min(1).optional(),
  /**
   * Where `local` and `sandbox` sessions run their tools unless their environment says otherwise:
   * `bubblewrap` on this node, or `e2b` (an E2B sandbox per session, see the `AGENTRY_E2B_*` variables).
   */
  AGENTRY_SANDBOX_PROVIDER: z.enum(['bubblewrap', 'e2b']).default('bubblewrap'),
  /** The E2B API key (a secret: never logged, never sent anywhere but the E2B API). */
  AGENTRY_E2B_API_KEY: z.string().min(1).optional(),
  /** Control-plane URL of a self-hosted E2B (default `https://api.<domain>`). */
  AGENTRY_E2B_API_URL: z.string().url().optional(),
  /** The E2B domain (default `e2b.app`); sandboxes are reached at `<port>-<id>.<domain>`. */
  AGENTRY_E2B_DOMAIN: z.string().min(1).optional(),
  /** One URL for every sandbox's envd (a self-hosted E2B behind a single proxy, or local development). */
  AGENTRY_E2B_SANDBOX_URL: z.string().url().optional(),
  /** The template new sandboxes start from (default E2B's `base`). */
  AGENTRY_E2B_TEMPLATE: z.string().min(1).optional(),
  /** The workspace directory inside an E2B sandbox: what the file tools call `/workspace` and where `bash` starts. */
  AGENTRY_E2B_WORKDIR: z
    .string()
    .regex(/^\/[A-Za-z0-9._/-]*[A-Za-z0-9._-]$/, 'an absolute directory path (letters, digits, . _ - /)')
    .default('/home/user/workspace'),
  /** What happens to a session's E2B sandbox after AGENTRY_E2B_IDLE_MS without a call: `pause` (resumed by the next call) or `kill`. */
  AGENTRY_E2B_IDLE_ACTION: z.enum(['pause', 'kill']).default('pause'),
  AGENTRY_E2B_IDLE_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 60_000),
  /**
   * E2B's own limit on a running sandbox, a backstop should no worker be left to pause or kill it. A sandbox in
   * use is connected to again halfway through, which extends it.
   */
  AGENTRY_E2B_SANDBOX_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(60 * 60_000),
  /** How long one request to E2B may take before the call fails (a provider that is down does not hang a call). */
  AGENTRY_E2B_REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /**
   * Domains an environment may name in `sandbox.domain` / `sandbox.api_url` (comma-separated). The
   * installation's API key goes only to these and AGENTRY_E2B_DOMAIN / AGENTRY_E2B_API_URL.
   */
  AGENTRY_E2B_ALLOWED_DOMAINS: hostPortList,
  /** How often a cluster worker reports its capacity and sandboxes; the report lives three times as long. */
  AGENTRY_HANDS_STATUS_INTERVAL_MS: z.coerce.number().int().positive().default(5_000),
  /** `cluster` serves the platform's Hands over NATS; `self_hosted` polls one environment's `/v1` work queue instead. */
  AGENTRY_WORKER_MODE: z.enum(['cluster', 'self_hosted']).default('cluster'),
  /** Self-hosted mode: the gateway's base URL, the environment to serve and its key (`agentry_envkey_…`). */
  AGENTRY_GATEWAY_URL: z.string().url().optional(),
  AGENTRY_ENVIRONMENT_ID: z.string().min(1).optional(),
  AGENTRY_ENVIRONMENT_KEY: z.string().min(1).optional(),
  /** Self-hosted mode: `bubblewrap` runs the tools in a sandbox; `none` runs them in a plain directory. */
  AGENTRY_SELF_HOSTED_SANDBOX: z.enum(['bubblewrap', 'none']).default('bubblewrap'),
  /** Self-hosted mode: the name this worker reports when it polls (defaults to host and pid). */
  AGENTRY_WORKER_ID: z.string().min(1).max(200).optional(),
  /**
   * How long a tool call waits for control to name its session's vault credentials (requests lost to a
   * NATS or control restart are sent again); past it the call fails rather than run without them.
   */
  AGENTRY_CREDENTIALS_WAIT_MS: z.coerce.number().int().positive().default(15_000),
  /** How often this worker tells the Brain it is alive. */
  AGENTRY_HANDS_HEARTBEAT_MS: z.coerce.number().int().positive().default(1_000),
  /** How long one heartbeat counts: a worker silent this long is dead to the Brain (its sessions move). */
  AGENTRY_HANDS_LIVENESS_MS: z.coerce.number().int().positive().default(5_000),
  /** Postgres connections for persisting session workspaces. */
  AGENTRY_WORKSPACE_SQL_POOL_SIZE: z.coerce.number().int().positive().default(4),
  /**
   * How often the worker looks for what a crash left behind: session directories on its disk and durable
   * copies whose session no longer exists (also once at start). 0 turns the sweep off.
   */
  AGENTRY_HANDS_ORPHAN_SWEEP_MS: z.coerce
    .number()
    .int()
    .nonnegative()
    .default(10 * 60_000),
});
export type WorkerEnv = z.infer<typeof WorkerEnvSchema>;

export const loadWorkerEnv = (env: NodeJS.ProcessEnv = process.env): WorkerEnv =>
  loadConfig(WorkerEnvSchema, env);
export const WORKER_CONFIG = Symbol('WORKER_CONFIG');
