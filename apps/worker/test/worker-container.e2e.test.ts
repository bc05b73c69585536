import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  ApiClient,
  createTestDatabase,
  launchPlatform,
  pollUntil,
  repoRoot,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { loadWorkerEnv } from '../src/config/env.js';
import { userlandOf } from '../src/userland/userland-of.js';

const run = promisify(execFile);

/** A created resource: the test reads only its id. */
interface Created {
  id: string;
}

/** An event of the session's log, with the fields of a tool result the test reads. */
interface LoggedEvent {
  type: string;
  is_error?: boolean;
  content?: Array<{ text?: string }>;
}
const hasPodman = existsSync('/usr/bin/podman') && existsSync('/usr/bin/mmdebstrap');
/** The worker image: a Debian root filesystem with Node and bubblewrap (no image registry is reachable here). */
const IMAGE_PACKAGES = ['nodejs', 'bubblewrap', 'ca-certificates'];
const IMAGE = `localhost/agentry-worker-test:${createHash('sha256').update(IMAGE_PACKAGES.join(',')).digest('hex').slice(0, 12)}`;

interface SecurityContext {
  runAsUser: number;
  runAsGroup: number;
  allowPrivilegeEscalation: boolean;
  readOnlyRootFilesystem: boolean;
  capabilities: { drop: string[] };
  seccompProfile: { type: string };
  appArmorProfile: { type: string };
  procMount: string;
}

/** The worker pod's security settings in the chart, as podman flags. */
function chartSecurityFlags(): string[] {
  const values = parse(readFileSync(join(repoRoot(), 'helm/agentry/values.yaml'), 'utf8')) as {
    workerSandbox: { securityContext: SecurityContext };
  };
  const c = values.workerSandbox.securityContext;
  return [
    `--user=${c.runAsUser}:${c.runAsGroup}`,
    ...c.capabilities.drop.map((cap) => `--cap-drop=${cap}`),
    ...(c.allowPrivilegeEscalation ? [] : ['--security-opt=no-new-privileges']),
    ...(c.readOnlyRootFilesystem ? ['--read-only'] : []),
    ...(c.seccompProfile.type === 'Unconfined' ? ['--security-opt=seccomp=unconfined'] : []),
    ...(c.appArmorProfile.type === 'Unconfined' ? ['--security-opt=apparmor=unconfined'] : []),
    ...(c.procMount === 'Unmasked' ? ['--security-opt=unmask=ALL'] : []),
  ];
}

async function ensureImage(): Promise<void> {
  if (
    await run('podman', ['image', 'exists', IMAGE]).then(
      () => true,
      () => false,
    )
  )
    return;
  const dir = await mkdtemp(join(tmpdir(), 'worker-image-'));
  try {
    const tar = join(dir, 'rootfs.tar');
    await run('mmdebstrap', ['--variant=minbase', `--include=${IMAGE_PACKAGES.join(',')}`, 'trixie', tar], {
      maxBuffer: 64 * 1024 * 1024,
    });
    await run('podman', ['import', tar, IMAGE]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A worker started inside a container with exactly the security settings the Helm chart gives the worker
 * pod runs a `bash` call in its sandbox, on the userland as the image ships it (read-only, at
 * /opt/agentry/userland/root). The other four services run beside it; the container shares the host's network
 * to reach them and NATS, Redis and Postgres.
 */
describe.runIf(hasPodman)('the worker in a container with the chart security settings', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let api: ApiClient;
  let volumes: string;
  let userlandRoot: string;
  const name = `agentry-worker-${process.pid}`;

  beforeAll(async () => {
    const userland = userlandOf(loadWorkerEnv({ PORT: '0' }))!;
    const root = await userland.ensure();
    userlandRoot = root;
    await ensureImage();
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url, replicas: { worker: 0 } });
    api = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    // The pod's writable volumes (workdirs, the layer cache, /tmp), owned by its user.
    volumes = await mkdtemp(join(tmpdir(), 'worker-volumes-'));
    await chown(volumes, 1000, 1000);
    const port = await getPort({ host: '127.0.0.1' });
    const env = {
      ...platform.env,
      PORT: String(port),
      HOME: '/tmp',
      AGENTRY_WORKDIR_ROOT: '/data/workdirs',
      AGENTRY_USERLAND: '/opt/agentry/userland/root',
      AGENTRY_USERLAND_CACHE_DIR: '/var/cache/agentry/userland',
    };
    await run('podman', [
      'run',
      '--detach',
      `--name=${name}`,
      // This machine's runtime: runc (crun refuses hybrid cgroups), limits no higher than the host's.
      '--runtime=runc',
      '--ulimit=nofile=16384:16384',
      '--ulimit=nproc=16384:16384',
      '--network=host',
      ...chartSecurityFlags(),
      `--volume=${repoRoot()}:/app:ro`,
      `--volume=${root}:/opt/agentry/userland/root:ro`,
      `--mount=type=bind,source=${volumes},destination=/data/workdirs`,
      `--mount=type=tmpfs,destination=/var/cache/agentry/userland,tmpfs-mode=1777`,
      '--mount=type=tmpfs,destination=/tmp,tmpfs-mode=1777',
      ...Object.entries(env).map(([key, value]) => `--env=${key}=${value}`),
      IMAGE,
      'node',
      '--import',
      '/app/apps/worker/dist/instrument.js',
      '/app/apps/worker/dist/main.js',
    ]);
    await pollUntil(
      'the containerised worker to be ready',
      () =>
        fetch(`http://127.0.0.1:${port}/readyz`).then(
          (r) => r.ok,
          () => false,
        ),
      60_000,
      { everyMs: 500 },
    ).catch(async (error: unknown) => {
      throw new Error(
        `the containerised worker did not become ready: ${(await run('podman', ['logs', name])).stderr}`,
        { cause: error },
      );
    });
  }, 600_000);

  afterAll(async () => {
    await run('podman', ['rm', '--force', name]).catch(() => undefined);
    await platform?.stop();
    await db?.drop();
    if (volumes) await rm(volumes, { recursive: true, force: true });
  });

  it('runs a bash call in its sandbox', async () => {
    const environment = await api.post<Created>('/v1/environments', {
      name: 'in a pod',
      config: { type: 'cloud' },
    });
    const command = 'id -u; cat /etc/agentry-userland; git --version | cut -d" " -f1-2; echo hi > f && cat f';
    const script = { turns: [{ reply: [{ toolCall: { name: 'bash', input: { command } } }, 'done'] }] };
    const agent = await api.post<Created>('/v1/agents', {
      name: 'pod',
      model: { id: 'scripted', script },
      tools: [{ type: 'agent_toolset_20260401' }],
    });
    const session = await api.post<Created>('/v1/sessions', {
      agent: agent.body.id,
      environment_id: environment.body.id,
    });
    await api.post(`/v1/sessions/${session.body.id}/events`, {
      events: [{ type: 'user.message', content: [{ type: 'text', text: 'go' }] }],
    });
    const result = await pollUntil(
      'the tool result',
      async () => {
        const events = await api.get<{ data: LoggedEvent[] }>(
          `/v1/sessions/${session.body.id}/events?limit=100`,
        );
        return events.body.data.find((e) => e.type === 'agent.tool_result');
      },
      60_000,
      { everyMs: 250 },
    );
    const text = (result.content ?? []).map((c) => c.text).join('');
    expect(result.is_error, text).toBe(false);
    const stamp = readFileSync(join(userlandRoot, 'etc/agentry-userland'), 'utf8').trim();
    expect(text).toBe(`1000\n${stamp}\ngit version\nhi`);
  });
});
