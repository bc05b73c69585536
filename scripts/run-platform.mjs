// Runs the five services as separate processes for `npm start`: fixed ports, prefixed output,
// Ctrl-C stops them all. Settings come from the environment (see docs/configuration.md).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = join(root, '.data');
mkdirSync(dataDir, { recursive: true });

// Secrets a dev install needs are generated once and kept in .data/, never committed.
const secretsFile = join(dataDir, 'secrets.json');
const secrets = existsSync(secretsFile)
  ? JSON.parse(readFileSync(secretsFile, 'utf8'))
  : { jwt: randomBytes(32).toString('hex'), master: randomBytes(32).toString('base64') };
writeFileSync(secretsFile, JSON.stringify(secrets), { mode: 0o600 });

const gatewayPort = Number(process.env.PORT ?? 8080);
const ports = {
  gateway: gatewayPort,
  control: gatewayPort + 1,
  dataplane: gatewayPort + 2,
  worker: gatewayPort + 3,
  scheduler: gatewayPort + 4,
};
const env = {
  ...process.env,
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/agentry',
  AGENTRY_JWT_SECRET: process.env.AGENTRY_JWT_SECRET ?? secrets.jwt,
  AGENTRY_MASTER_KEY: process.env.AGENTRY_MASTER_KEY ?? secrets.master,
  AGENTRY_WORKDIR_ROOT: process.env.AGENTRY_WORKDIR_ROOT ?? join(dataDir, 'workdirs'),
};
const colors = { gateway: 36, control: 35, dataplane: 33, worker: 32, scheduler: 34 };
const children = [];

for (const [name, port] of Object.entries(ports)) {
  const dist = join(root, 'apps', name, 'dist');
  const child = spawn(
    process.execPath,
    ['--enable-source-maps', '--import', join(dist, 'instrument.js'), join(dist, 'main.js')],
    {
      env: { ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const tag = `\x1b[${colors[name]}m${name.padEnd(9)}\x1b[0m | `;
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) process.stdout.write(tag + line + '\n');
    });
  }
  child.on('exit', (code, signal) => {
    process.stdout.write(`${tag}exited (${signal ?? code})\n`);
    if (!stopping) shutdown(1);
  });
  children.push(child);
}

let stopping = false;
function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 3000).unref();
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

async function waitReady() {
  for (let i = 0; i < 120; i += 1) {
    const states = await Promise.all(
      Object.values(ports).map((p) =>
        fetch(`http://127.0.0.1:${p}/readyz`).then(
          (r) => r.ok,
          () => false,
        ),
      ),
    );
    if (states.every(Boolean)) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

/** System packages the Hands lack on this machine (see apps/worker/src/sandbox/hands-prerequisites.ts). */
async function missingHandsPackages() {
  const { loadWorkerEnv } = await import('../apps/worker/dist/config/env.js');
  const { missingHandsPackages: missing } =
    await import('../apps/worker/dist/sandbox/hands-prerequisites.js');
  return missing(loadWorkerEnv({ ...env, PORT: '0' }));
}

if (await waitReady()) {
  const missing = await missingHandsPackages();
  const scripted =
    !process.env.ANTHROPIC_API_KEY && !process.env.OPENAI_API_KEY && !process.env.DASHSCOPE_API_KEY;
  const usingDefaultPassword = !process.env.AGENTRY_ADMIN_PASSWORD;
  console.log(`
  Agentry is running.
    Gateway:   http://127.0.0.1:${gatewayPort}   (API docs: http://127.0.0.1:${gatewayPort}/docs)
    Console:   http://127.0.0.1:${gatewayPort}/console
    CLI:       pnpm exec agentry --url http://127.0.0.1:${gatewayPort} login --username admin
    Login:     POST /api/auth/login  {"username":"admin","password":"${usingDefaultPassword ? 'admin' : '<AGENTRY_ADMIN_PASSWORD>'}"}
    Model:     ${scripted ? 'no model key configured: agents run on the scripted model (model "scripted")' : 'provider keys found in the environment'}
${missing.map((m) => `    Missing:   ${m.package} (apt-get install ${m.package}): ${m.effect}\n`).join('')}  Press Ctrl-C to stop.
`);
} else {
  console.error('The services did not become ready; see the output above.');
  shutdown(1);
}
