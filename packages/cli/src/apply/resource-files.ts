import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import matter from 'gray-matter';
import { parse as parseYaml } from 'yaml';
import { CliError, EXIT } from '../errors.js';

export type ApplyKind = 'agent' | 'environment' | 'vault' | 'memory_store' | 'deployment';

/** One resource as a file declares it. */
export interface DeclaredResource {
  /** Path relative to the folder, `/`-separated: the key in the lock file. */
  file: string;
  kind: ApplyKind;
  body: Record<string, unknown>;
}

/** `/v1` collection of each kind, and the order they are applied in (what others refer to first). */
export const KIND_PATHS: Record<ApplyKind, string> = {
  environment: '/v1/environments',
  vault: '/v1/vaults',
  memory_store: '/v1/memory_stores',
  agent: '/v1/agents',
  deployment: '/v1/deployments',
};
const APPLY_ORDER: ApplyKind[] = ['environment', 'vault', 'memory_store', 'agent', 'deployment'];

const FOLDER_KINDS: Record<string, ApplyKind> = {
  agents: 'agent',
  environments: 'environment',
  vaults: 'vault',
  memory_stores: 'memory_store',
  'memory-stores': 'memory_store',
  deployments: 'deployment',
};

/**
 * The resources of a folder: agents as Markdown (front matter = config, body = system prompt), the
 * others as YAML or JSON, their kind taken from their folder (`environments/`…) or a `kind:` field.
 */
export function readResourceFolder(root: string): DeclaredResource[] {
  const resources: DeclaredResource[] = [];
  for (const path of filesUnder(root)) {
    const file = relative(root, path).split('\\').join('/');
    if (/\.md$/i.test(path)) {
      if (/^readme\.md$/i.test(basename(path))) continue;
      const { data, content } = parseMarkdown(path, file);
      const body: Record<string, unknown> = { ...data };
      delete body.kind;
      if (content.trim()) body.system = content.trim();
      resources.push({ file, kind: 'agent', body });
    } else if (/\.(ya?ml|json)$/i.test(path)) {
      const data = parseData(path, file);
      const kind = (data.kind as ApplyKind | undefined) ?? FOLDER_KINDS[basename(dirname(path))];
      if (!kind || !(kind in KIND_PATHS))
        throw new CliError(
          `${file}: put it in a kind's folder (agents/, environments/…) or give kind:`,
          EXIT.usage,
        );
      const body = { ...data };
      delete body.kind;
      resources.push({ file, kind, body });
    }
  }
  return resources.sort(
    (a, b) => APPLY_ORDER.indexOf(a.kind) - APPLY_ORDER.indexOf(b.kind) || a.file.localeCompare(b.file),
  );
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => !name.startsWith('.') && name !== 'agentry.lock.json')
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

function parseMarkdown(path: string, file: string): { data: Record<string, unknown>; content: string } {
  try {
    const parsed = matter(readFileSync(path, 'utf8'));
    return { data: parsed.data, content: parsed.content };
  } catch (error) {
    throw new CliError(`${file}: ${(error as Error).message}`, EXIT.usage);
  }
}

function parseData(path: string, file: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = parseYaml(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliError(`${file}: ${(error as Error).message}`, EXIT.usage);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new CliError(`${file}: expected an object`, EXIT.usage);
  return data as Record<string, unknown>;
}
