import { randomBytes } from 'node:crypto';
import {
  applyMigrations,
  createPrismaClient,
  DatabaseAdmin,
  databaseUrlFor,
  type PrismaClient,
} from '@agentry/db';
import { ensureTemplateDatabase } from './template-database.js';

const TEST_DATABASE_PREFIX = 'agentry_t_';

export interface TestDatabase {
  /** Database name, `agentry_t_<random>`. */
  name: string;
  /** Connection URL of this database only. */
  url: string;
  /** A client for `url`; created lazily, disconnected by `drop()`. */
  readonly prisma: PrismaClient;
  /** Applies this tree's migrations not yet applied (to a database made with `migrationsOf`: the upgrade). */
  migrate(): Promise<void>;
  /** Disconnects the client and drops the database, ending any session still connected. */
  drop(): Promise<void>;
}

/** The server test databases live on: `DATABASE_URL`, else the local trust-auth Postgres. */
export function testDatabaseBaseUrl(): string {
  return process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
}

export interface TestDatabaseOptions {
  /**
   * The @agentry/db package of another release's tree: the database gets that release's migrations only
   * (applied on an empty database, no template), as a deployment of that release left it.
   */
  migrationsOf?: string;
}

/**
 * A fresh, fully migrated database for one test file: a copy of the migrated template, so it
 * costs a `CREATE DATABASE ... TEMPLATE`, not a migration run.
 */
export async function createTestDatabase(
  baseUrl: string = testDatabaseBaseUrl(),
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  const template = options.migrationsOf ? undefined : await ensureTemplateDatabase(baseUrl);
  const name = `${TEST_DATABASE_PREFIX}${randomBytes(6).toString('hex')}`;
  await withAdmin(baseUrl, (admin) => admin.createDatabase(name, { template }));
  const url = databaseUrlFor(baseUrl, name);
  if (options.migrationsOf)
    await applyMigrations(url, { packageDir: options.migrationsOf }).catch(async (error: unknown) => {
      await withAdmin(baseUrl, (admin) => admin.dropDatabase(name));
      throw error;
    });
  let client: PrismaClient | undefined;
  let dropped = false;
  return {
    name,
    url,
    get prisma() {
      if (dropped) throw new Error(`test database ${name} was dropped`);
      client ??= createPrismaClient(url);
      return client;
    },
    migrate: () => applyMigrations(url),
    async drop() {
      if (dropped) return;
      dropped = true;
      await client?.$disconnect();
      await withAdmin(baseUrl, (admin) => admin.dropDatabase(name));
    },
  };
}

async function withAdmin<T>(baseUrl: string, body: (admin: DatabaseAdmin) => Promise<T>): Promise<T> {
  const admin = await DatabaseAdmin.connect(baseUrl);
  try {
    return await body(admin);
  } finally {
    await admin.close();
  }
}
