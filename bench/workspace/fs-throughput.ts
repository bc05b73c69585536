/**
 * Workspace backend throughput against raw baselines measured in the same run:
 * memory and local directory against raw node:fs, Postgres against raw SQL on a plain table.
 * Run: npx tsx bench/workspace/fs-throughput.ts   (env: DATABASE_URL, BENCH_FILES, BENCH_FILE_BYTES)
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Workspace packages resolve to their sources through the `source` export condition; re-run with it if missing.
if (!process.execArgv.some((a) => a.includes('conditions=source')) && !process.env.BENCH_REEXEC) {
  const r = spawnSync(
    process.execPath,
    [...process.execArgv, '--conditions=source', fileURLToPath(import.meta.url)],
    {
      stdio: 'inherit',
      env: { ...process.env, BENCH_REEXEC: '1' },
    },
  );
  process.exit(r.status ?? 1);
}

const ws = await import('@agentry/workspace');
type WorkspaceFs = import('../../packages/workspace/src/index.js').WorkspaceFs;
const pg = createRequire(fileURLToPath(new URL('../../packages/workspace/package.json', import.meta.url)))(
  'pg',
) as typeof import('pg');

const FILES = Number(process.env.BENCH_FILES ?? 200);
const PG_FILES = Number(process.env.BENCH_PG_FILES ?? 100);
const FILE_BYTES = Number(process.env.BENCH_FILE_BYTES ?? 4096);
const ROUNDS = 3;
const LIST_PER_ROUND = 5;
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const payload = randomBytes(FILE_BYTES);
const name = (i: number) => `dir${i % 10}/file-${i}.bin`;

interface Ops {
  write: (i: number) => Promise<unknown>;
  read: (i: number) => Promise<unknown>;
  list: () => Promise<unknown>;
}
type Op = 'write' | 'read' | 'list';
type Rates = Record<Op, number>;
const OPS: Op[] = ['write', 'read', 'list'];

async function rate(count: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await fn(i);
  return count / (Number(process.hrtime.bigint() - start) / 1e9);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Backend and baseline run in alternating rounds and each reports its median, so load changes on a busy
 * machine hit both sides alike. A warm-up round creates the files; measured writes overwrite them.
 */
async function compare(
  files: number,
  backend: Ops,
  baseline: Ops,
): Promise<{ backend: Rates; baseline: Rates }> {
  const samples = {
    backend: { write: [], read: [], list: [] } as Record<Op, number[]>,
    baseline: { write: [], read: [], list: [] } as Record<Op, number[]>,
  };
  for (const ops of [baseline, backend]) for (let i = 0; i < files; i++) await ops.write(i);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [side, ops] of [
      ['baseline', baseline],
      ['backend', backend],
    ] as const) {
      samples[side].write.push(await rate(files, ops.write));
      samples[side].read.push(await rate(files, ops.read));
      samples[side].list.push(await rate(LIST_PER_ROUND, () => ops.list()));
    }
  }
  const summarize = (s: Record<Op, number[]>): Rates => ({
    write: median(s.write),
    read: median(s.read),
    list: median(s.list),
  });
  return { backend: summarize(samples.backend), baseline: summarize(samples.baseline) };
}

const workspaceOps = (fs: WorkspaceFs): Ops => ({
  write: (i) => fs.writeBytes(name(i), payload),
  read: (i) => fs.readBytes(name(i)),
  list: () => fs.list('', { recursive: true }),
});

function rawFsOps(root: string): Ops {
  return {
    write: async (i) => {
      await mkdir(join(root, `dir${i % 10}`), { recursive: true });
      await writeFile(join(root, name(i)), payload);
    },
    read: (i) => readFile(join(root, name(i))),
    // A listing the port returns carries size and mtime, so the baseline stats every entry too.
    list: async () => {
      const names = await readdir(root, { recursive: true });
      return Promise.all(names.map((n) => lstat(join(root, n))));
    },
  };
}

function rawSqlOps(pool: import('pg').Pool): Ops {
  return {
    write: (i) =>
      pool.query(
        'INSERT INTO raw_files (path, content) VALUES ($1, $2) ON CONFLICT (path) DO UPDATE SET content = EXCLUDED.content',
        [name(i), payload],
      ),
    read: (i) => pool.query('SELECT content FROM raw_files WHERE path = $1', [name(i)]),
    list: () => pool.query('SELECT path, length(content) AS size FROM raw_files'),
  };
}

const rows: { backend: string; baseline: string; op: string; ops: number; base: number }[] = [];
function record(backend: string, baseline: string, result: { backend: Rates; baseline: Rates }): void {
  for (const op of OPS)
    rows.push({ backend, baseline, op, ops: result.backend[op], base: result.baseline[op] });
}

const started = Date.now();
const tmp = await mkdtemp(join(tmpdir(), 'bench-ws-'));
try {
  let n = 0;
  const rawFs = () => rawFsOps(join(tmp, `raw-${n++}`));
  record('memory', 'raw fs', await compare(FILES, workspaceOps(new ws.MemoryWorkspaceFs()), rawFs()));
  record(
    'local directory',
    'raw fs',
    await compare(FILES, workspaceOps(new ws.LocalWorkspaceFs({ root: join(tmp, 'local') })), rawFs()),
  );
  const overlay = new ws.OverlayWorkspaceFs(
    new ws.ReadOnlyWorkspaceFs(new ws.MemoryWorkspaceFs()),
    new ws.LocalWorkspaceFs({ root: join(tmp, 'overlay') }),
  );
  record('overlay (memory under local)', 'raw fs', await compare(FILES, workspaceOps(overlay), rawFs()));

  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 4, options: `-c search_path=${schema}` });
    try {
      await pool.query(ws.workspaceTableDdl('workspace_files'));
      await pool.query('CREATE TABLE raw_files (path text PRIMARY KEY, content bytea NOT NULL)');
      const pgFs = new ws.PostgresWorkspaceFs({
        sql: pool,
        table: 'workspace_files',
        tenantId: 'bench',
        root: 'tenants/bench/global',
      });
      record('postgres', 'raw SQL', await compare(PG_FILES, workspaceOps(pgFs), rawSqlOps(pool)));
    } finally {
      await pool.end();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    }
  } catch (error) {
    console.log(`postgres skipped: ${(error as Error).message}`);
  } finally {
    await admin.end();
  }
} finally {
  await rm(tmp, { recursive: true, force: true });
}

console.log(
  `files=${FILES} (postgres ${PG_FILES}) x ${FILE_BYTES} B, ${ROUNDS} alternating rounds, medians; list = one recursive listing of all files + 10 dirs`,
);
console.log(
  [
    'backend'.padEnd(30),
    'op'.padEnd(6),
    'ops/s'.padStart(10),
    'baseline'.padEnd(9),
    'base ops/s'.padStart(11),
    'ratio'.padStart(7),
  ].join(' '),
);
for (const r of rows) {
  console.log(
    [
      r.backend.padEnd(30),
      r.op.padEnd(6),
      r.ops.toFixed(0).padStart(10),
      r.baseline.padEnd(9),
      r.base.toFixed(0).padStart(11),
      (r.ops / r.base).toFixed(2).padStart(7),
    ].join(' '),
  );
}
console.log(
  `ratio = backend ops/s ÷ baseline ops/s (1.00 = as fast as raw). Total ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
