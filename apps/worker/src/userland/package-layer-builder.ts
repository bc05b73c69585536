import { createWriteStream, type WriteStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '@agentry/platform';
import type { WorkerEnv } from '../config/env.js';
import { systemBundle } from '../sandbox/egress-ca.js';
import { EgressProxy } from '../sandbox/egress-proxy.js';
import { EGRESS_MOUNT, EGRESS_SOCKET } from '../sandbox/shell-wrapper.js';
import { BUILD_INPUT_MOUNT, BUILD_OUTPUT_MOUNT, INSTALL_SCRIPT } from './install-script.js';
import { PACKAGE_MANAGERS, type PackageManager, type PackageSet } from './package-set.js';
import { registryEnv, registryHosts } from './registries.js';
import { runLogged } from './run-logged.js';

/** A layer build that failed; `manager` and `spec` name the package when the install got that far. */
export class LayerBuildError extends Error {
  constructor(
    message: string,
    readonly manager?: PackageManager,
    readonly spec?: string,
  ) {
    super(message);
  }
}

/** Inside the install sandbox: the worker's trust store (an installation's own CAs, a proxy's). */
const BUILD_CA_BUNDLE = '/run/agentry/ca/ca-bundle.crt';

/** Base directories a layer gets its own copies of: changed in place by installs, and small. */
const COPIED_DIRS = ['etc', 'var', 'usr/local'];
const SYSTEM_MANAGERS: readonly PackageManager[] = ['apt', 'cargo', 'gem', 'go'];
const USER_MANAGERS: readonly PackageManager[] = ['npm', 'pip', 'cargo', 'gem', 'go'];

/**
 * Builds one package layer: the base userland plus a package set, as a tree of its own under
 * `<cache>/layers/<key>/root`. The tree is hard links to the base's files (/etc, /var and /usr/local are
 * copies), so a layer costs what its packages add; installs replace files rather than write into them.
 * The install runs in sandboxes that reach only the configured registries, through an egress proxy like a
 * session's; the packages of npm, pip and the like (whose scripts run at install) may write /usr/local alone,
 * so they can change no file the layer shares with the base.
 */
export class PackageLayerBuilder {
  constructor(
    private readonly config: WorkerEnv,
    private readonly clock: Clock,
  ) {}

  layersDir(): string {
    return join(this.config.AGENTRY_USERLAND_CACHE_DIR, 'layers');
  }

  /** When a built layer's build started and ended, and its log (kept with the layer). */
  async builtInfo(key: string): Promise<{ startedAt?: string; finishedAt?: string; log: string }> {
    const dir = join(this.layersDir(), key);
    const [info, log] = await Promise.all([
      readFile(join(dir, 'build.json'), 'utf8').then(
        (text) => JSON.parse(text) as { startedAt?: string; finishedAt?: string },
        () => ({}),
      ),
      readFile(join(dir, 'build.log'), 'utf8').catch(() => ''),
    ]);
    return { ...info, log };
  }

  /** Builds the layer into `<layers>/<key>`; `logFile` receives the build's output as it runs. */
  async build(
    key: string,
    set: PackageSet,
    baseRoot: string,
    logFile: string,
    startedAt: string,
  ): Promise<void> {
    const final = join(this.layersDir(), key);
    const build = `${final}.build-${process.pid}`;
    await rm(build, { recursive: true, force: true });
    await mkdir(join(build, 'input'), { recursive: true });
    await mkdir(join(build, 'out'), { recursive: true });
    await rm(logFile, { force: true });
    await writeFile(join(build, 'input', 'install.sh'), INSTALL_SCRIPT);
    await writeFile(join(build, 'packages.json'), JSON.stringify(set, null, 2));
    for (const manager of PACKAGE_MANAGERS)
      if (set[manager])
        await writeFile(join(build, 'input', `${manager}.list`), `${set[manager].join('\n')}\n`);

    await mkdir(this.config.AGENTRY_SANDBOX_SOCKET_DIR, { recursive: true, mode: 0o711 });
    const socket = join(this.config.AGENTRY_SANDBOX_SOCKET_DIR, `layer-${key.slice(0, 16)}.sock`);
    const egress = await EgressProxy.listen(socket, {
      networking: { type: 'limited', allowedHosts: registryHosts(this.config) },
      privateAllowed: this.config.AGENTRY_SANDBOX_EGRESS_PRIVATE_ALLOWED,
    });
    const log = createWriteStream(logFile);
    try {
      await this.tree(baseRoot, join(build, 'root'), log);
      if (SYSTEM_MANAGERS.some((m) => set[m])) await this.install('system', build, socket, log);
      if (USER_MANAGERS.some((m) => set[m])) await this.install('user', build, socket, log);
    } catch (error) {
      const failed = await readFile(join(build, 'out', 'failed'), 'utf8').catch(() => '');
      await rm(build, { recursive: true, force: true });
      const [manager, spec] = failed.trim().split('\t') as [PackageManager | undefined, string | undefined];
      if (manager && spec)
        throw new LayerBuildError(`${manager} package ${spec} could not be installed`, manager, spec);
      throw new LayerBuildError(`the package layer could not be built: ${(error as Error).message}`);
    } finally {
      await new Promise((resolve) => log.end(resolve));
      await egress.close();
    }
    await rm(join(build, 'input'), { recursive: true, force: true });
    await rm(join(build, 'out'), { recursive: true, force: true });
    await writeFile(
      join(build, 'build.json'),
      JSON.stringify({ startedAt, finishedAt: this.clock.now().toISOString() }),
    );
    await copyFile(logFile, join(build, 'build.log'));
    await rm(final, { recursive: true, force: true });
    await rename(build, final);
    await rm(logFile, { force: true });
  }

  /** The layer's tree: hard links to the base, with copies of the directories installs change in place. */
  private async tree(baseRoot: string, root: string, log: WriteStream): Promise<void> {
    const timeout = this.config.AGENTRY_PACKAGES_BUILD_TIMEOUT_MS;
    await runLogged('cp', ['-al', baseRoot, root], log, timeout);
    for (const dir of COPIED_DIRS) {
      await rm(join(root, dir), { recursive: true, force: true });
      await runLogged('cp', ['-a', join(baseRoot, dir), join(root, dir)], log, timeout);
    }
  }

  private async install(
    phase: 'system' | 'user',
    build: string,
    socket: string,
    log: WriteStream,
  ): Promise<void> {
    const root = join(build, 'root');
    // Archive packages install as root of the namespace over the whole tree; the others without
    // capabilities, over a read-only tree but /usr/local.
    const tree =
      phase === 'system'
        ? ['--cap-add', 'ALL', '--bind', root, '/']
        : ['--cap-drop', 'ALL', '--ro-bind', root, '/', '--bind', join(root, 'usr/local'), '/usr/local'];
    const bundle = systemBundle();
    const trust = bundle
      ? [
          '--ro-bind',
          bundle,
          BUILD_CA_BUNDLE,
          ...[
            'SSL_CERT_FILE',
            'NODE_EXTRA_CA_CERTS',
            'PIP_CERT',
            'REQUESTS_CA_BUNDLE',
            'CURL_CA_BUNDLE',
          ].flatMap((name) => ['--setenv', name, BUILD_CA_BUNDLE]),
        ]
      : [];
    const argv = [
      '--unshare-all',
      '--unshare-user',
      '--uid',
      '0',
      '--gid',
      '0',
      '--die-with-parent',
      '--new-session',
      '--hostname',
      'build',
      ...tree,
      '--proc',
      '/proc',
      '--dev',
      '/dev',
      '--tmpfs',
      '/tmp',
      '--tmpfs',
      '/run',
      '--ro-bind',
      socket,
      `${EGRESS_MOUNT}/${EGRESS_SOCKET}`,
      '--ro-bind',
      join(build, 'input'),
      BUILD_INPUT_MOUNT,
      '--bind',
      join(build, 'out'),
      BUILD_OUTPUT_MOUNT,
      '--clearenv',
      ...trust,
      ...Object.entries(registryEnv(this.config)).flatMap(([name, value]) => ['--setenv', name, value]),
      '--',
      '/bin/bash',
      `${BUILD_INPUT_MOUNT}/install.sh`,
      phase,
    ];
    log.write(`agentry: installing the ${phase} packages\n`);
    await runLogged(
      this.config.AGENTRY_SANDBOX_BWRAP_PATH,
      argv,
      log,
      this.config.AGENTRY_PACKAGES_BUILD_TIMEOUT_MS,
    );
  }
}
