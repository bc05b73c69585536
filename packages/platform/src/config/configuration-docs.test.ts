import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every variable a service's config schema reads must be documented, and the documentation must not list
// variables nothing reads. Read from the sources, so a new setting without a line in the docs fails here.
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SCHEMA_FILES = [
  ...['control', 'dataplane', 'gateway', 'scheduler', 'worker'].map((app) => `apps/${app}/src/config/env.ts`),
  'packages/platform/src/config/base-env.ts',
  'packages/platform/src/config/model-env.ts',
  'packages/platform/src/config/webhook-egress-env.ts',
];
const SOURCE_ROOTS = [
  'apps/control/src',
  'apps/dataplane/src',
  'apps/gateway/src',
  'apps/scheduler/src',
  'apps/worker/src',
  'packages/platform/src',
  'packages/harness/src',
  'packages/workspace/src',
  'packages/db/src',
  'packages/operations/src',
  'packages/cli/src',
];
/** Read by the tooling around the services, or the operating system's own (handed on to child processes). */
const DOCUMENTED_ELSEWHERE = new Set(['AGENTRY_CONFORMANCE_SECRET', 'PATH', 'HOME']);

const ENV_NAME = /^[A-Z][A-Z0-9_]{2,}$/;

function schemaKeys(path: string): string[] {
  const text = readFileSync(join(ROOT, path), 'utf8');
  return [...text.matchAll(/^\s{2}([A-Z][A-Z0-9_]+)\s*:/gm)].map((match) => match[1]!);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !/\.(test|spec)\.ts$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((path) => !path.includes('/testing/'));
}

/** `process.env.X`, and `env.X` where a function takes the environment as a parameter. */
function directReads(): string[] {
  return SOURCE_ROOTS.flatMap(sourceFiles).flatMap((path) => {
    const text = readFileSync(join(ROOT, path), 'utf8');
    return [
      ...text.matchAll(/\b(?:process\.env|env)(?:\.([A-Z][A-Z0-9_]+)|\[['"]([A-Z][A-Z0-9_]+)['"]\])/g),
    ].map((m) => (m[1] ?? m[2])!);
  });
}

function documented(): Set<string> {
  const text = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
  return new Set(
    [...text.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!).filter((name) => ENV_NAME.test(name)),
  );
}

const read = new Set(
  [...SCHEMA_FILES.flatMap(schemaKeys), ...directReads()].filter((name) => !DOCUMENTED_ELSEWHERE.has(name)),
);

describe('docs/configuration.md', () => {
  it('finds the settings it checks', () => {
    expect(read.size).toBeGreaterThan(40);
    expect(read).toContain('AGENTRY_LEASE_TTL_MS');
  });

  it('documents every variable a service reads', () => {
    const docs = documented();
    expect([...read].filter((name) => !docs.has(name)).sort()).toEqual([]);
  });

  it('documents no variable that nothing reads', () => {
    const unread = [...documented()].filter((name) => !read.has(name) && /^(AGENTRY|OTEL)_/.test(name));
    expect(unread.sort()).toEqual([]);
  });
});
