// Prisma CLI configuration: migrations run fully offline through the Wasm schema engine and the
// pg driver adapter (Prisma 6.19.3; no native engine download).
import 'dotenv/config';
import pg from 'pg';
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

// The schema's `env("DATABASE_URL")` must resolve even for `generate`: when it does not, the CLI
// falls back to downloading a native query engine, which fails offline.
// Commands that connect still require a real DATABASE_URL (see adapter() below).
const databaseUrl = process.env.DATABASE_URL;
process.env.DATABASE_URL ??= 'postgresql://placeholder@127.0.0.1:5432/placeholder';

// prisma/orm#27403: the Wasm schema engine cannot deserialize the catalog types `name` (OID 19)
// and "char" (OID 18) that adapter-pg passes through; report them as `text` (OID 25).
type PgResultProto = {
  addFields: (this: PgResultProto, fields: Array<{ dataTypeID: number }>) => void;
  __catalogTypesAsText?: boolean;
};
const resultProto = (pg as unknown as { Result: { prototype: PgResultProto } }).Result.prototype;
if (!resultProto.__catalogTypesAsText) {
  const addFields = resultProto.addFields;
  resultProto.addFields = function (this: PgResultProto, fields) {
    for (const f of fields) if (f.dataTypeID === 19 || f.dataTypeID === 18) f.dataTypeID = 25;
    return addFields.call(this, fields);
  };
  resultProto.__catalogTypesAsText = true;
}

// The Wasm engine leaves a 10 s timer pending, so every CLI call would linger ~10 s after its work
// is done. Unref long timers; the engine's real work keeps its own sockets and promises alive.
const marker = globalThis as { __agentryUnrefLongTimers?: boolean };
if (!marker.__agentryUnrefLongTimers) {
  const original = globalThis.setTimeout;
  const patched = (fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const timer = original(fn, ms, ...args);
    if ((ms ?? 0) >= 10_000) timer.unref();
    return timer;
  };
  globalThis.setTimeout = patched as typeof globalThis.setTimeout;
  marker.__agentryUnrefLongTimers = true;
}

// Discrete fields, not a connectionString: adapter-pg overrides `database` for the shadow
// database, and a connectionString would win over that override.
interface PoolConfig {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  allowExitOnIdle: boolean;
}

function poolConfig(url: string): PoolConfig {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)) || 'postgres',
    // The CLI never ends its pools; idle clients must not keep the process alive.
    allowExitOnIdle: true,
  };
}

// adapter-pg 6.19.3 drops the shadow database before closing the shadow pool ("database ... is
// being accessed by other users"); close first, then drop.
class PrismaPgForMigrate extends PrismaPg {
  constructor(private readonly cfg: PoolConfig) {
    super(cfg);
  }

  override async connectToShadowDb() {
    const main = await this.connect();
    const database = `prisma_migrate_shadow_db_${globalThis.crypto.randomUUID()}`;
    await main.executeScript(`CREATE DATABASE "${database}"`);
    const shadow = await new PrismaPg({ ...this.cfg, database }).connect();
    const disposeShadow = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await disposeShadow();
      await main.executeScript(`DROP DATABASE IF EXISTS "${database}"`);
      await main.dispose();
    };
    return shadow;
  }
}

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  adapter: () =>
    // Built inside the promise, so a missing URL rejects it as Prisma expects.
    new Promise<PrismaPgForMigrate>((resolve) => {
      // No silent default: migrating the wrong database (e.g. the `postgres` maintenance one) is worse.
      if (!databaseUrl) throw new Error('DATABASE_URL is not set: it names the database to migrate');
      resolve(new PrismaPgForMigrate(poolConfig(databaseUrl)));
    }),
});
