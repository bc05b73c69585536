import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { applyMigrations, DatabaseAdmin, databaseUrlFor, migrationsDir } from '@agentry/db';

const TEMPLATE_PREFIX = 'agentry_tpl_';

const templates = new Map<string, Promise<string>>();

/**
 * Name of a database holding every committed migration, migrated once per machine and reused as
 * the template of each test database. The name carries a hash of the migrations, so a schema
 * change gets a fresh template. Parallel test processes serialize on an advisory lock.
 */
export function ensureTemplateDatabase(baseUrl: string): Promise<string> {
  let pending = templates.get(baseUrl);
  if (!pending) {
    pending = buildTemplate(baseUrl);
    pending.catch(() => templates.delete(baseUrl));
    templates.set(baseUrl, pending);
  }
  return pending;
}

async function buildTemplate(baseUrl: string): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${await migrationsHash()}`;
  const admin = await DatabaseAdmin.connect(baseUrl);
  try {
    await admin.withAdvisoryLock(name, async () => {
      if (await admin.databaseExists(name)) return;
      // Migrate under a scratch name and rename at the end: a half-migrated template is never visible.
      const building = `${name}_build`;
      await admin.dropDatabase(building);
      await admin.createDatabase(building);
      try {
        await applyMigrations(databaseUrlFor(baseUrl, building));
        await admin.renameDatabase(building, name);
      } catch (error) {
        await admin.dropDatabase(building);
        throw error;
      }
    });
  } finally {
    await admin.close();
  }
  return name;
}

async function migrationsHash(): Promise<string> {
  const root = migrationsDir();
  const hash = createHash('sha256');
  for (const file of await listFiles(root)) {
    hash
      .update(relative(root, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory() ? listFiles(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]),
    ),
  );
  return nested.flat().sort();
}
