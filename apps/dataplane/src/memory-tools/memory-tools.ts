import { AppError, type MemoryToolName, type MemoryToolset } from '@agentry/contracts';
import { errorOutcome, inputText, textOutcome, type HarnessTool, type ToolOutcome } from '@agentry/harness';
import type { SessionMemoryStore } from '../mounts/resource-mounts.js';
import type { MemoryStoreAccess, StoredMemory } from './memory-store-access.js';
import { memoryPath, storesFor } from './memory-targets.js';

const READ_TOOLS = new Set<MemoryToolName>(['memory_list', 'memory_read', 'memory_search']);
const MAX_SEARCH_HITS = 50;

type Input = Record<string, unknown>;
type Run = (input: Input) => Promise<string>;

const STORE = {
  type: 'string',
  description: 'The memory store, by name or id. Optional when the session has one store to use.',
};
const PATH = { type: 'string', description: 'The memory\'s path in the store, e.g. "/notes/user.md"' };

/**
 * `memory_toolset_20261030` over the session's memory stores: offered only when the session holds a store,
 * each tool only if its config enables it, and the writing ones only when a store is held `read_write`.
 */
export function memoryTools(
  toolset: MemoryToolset,
  stores: readonly SessionMemoryStore[],
  access: MemoryStoreAccess,
): HarnessTool[] {
  if (stores.length === 0) return [];
  const writable = stores.some((s) => s.access === 'read_write');
  const configOf = (name: MemoryToolName) => toolset.configs.find((c) => c.name === name);
  const tools = new MemoryToolRuns(stores, access);
  const make = (
    name: MemoryToolName,
    description: string,
    properties: Input,
    required: string[],
    run: Run,
  ) => {
    const config = configOf(name) ?? toolset.default_config;
    if (!config.enabled || (!READ_TOOLS.has(name) && !writable)) return [];
    const tool: HarnessTool = {
      name,
      description,
      inputSchema: { type: 'object', properties: { store: STORE, ...properties }, required },
      idempotent: READ_TOOLS.has(name),
      toolset: 'memory',
      defaultPermission: config.permission_policy.type === 'always_ask' ? 'always_ask' : 'always_allow',
      execute: (input) => outcomeOf(() => run(input)),
    };
    return [tool];
  };
  const text = { type: 'string' };
  return [
    ...make(
      'memory_list',
      'Lists the memories (paths and sizes), optionally under a path prefix.',
      { path_prefix: text },
      [],
      (i) => tools.list(i),
    ),
    ...make('memory_read', 'Reads one memory.', { path: PATH }, ['path'], (i) => tools.read(i)),
    ...make(
      'memory_search',
      'Finds the lines of memories that contain a text (case-insensitive).',
      { query: text },
      ['query'],
      (i) => tools.search(i),
    ),
    ...make(
      'memory_write',
      'Creates a memory, or replaces its whole content.',
      { path: PATH, content: text },
      ['path', 'content'],
      (i) => tools.write(i),
    ),
    ...make(
      'memory_str_replace',
      'Replaces a text that occurs exactly once in a memory.',
      { path: PATH, old_str: text, new_str: text },
      ['path', 'old_str', 'new_str'],
      (i) => tools.replace(i),
    ),
    ...make(
      'memory_append',
      'Adds text at the end of a memory (creating it if needed).',
      { path: PATH, content: text },
      ['path', 'content'],
      (i) => tools.append(i),
    ),
    ...make('memory_delete', 'Deletes a memory.', { path: PATH }, ['path'], (i) => tools.delete(i)),
  ];
}

/** What each tool does; a refusal is an AppError, which the model is shown as an error result. */
class MemoryToolRuns {
  constructor(
    private readonly stores: readonly SessionMemoryStore[],
    private readonly access: MemoryStoreAccess,
  ) {}

  async list(input: Input): Promise<string> {
    const prefix = typeof input.path_prefix === 'string' ? memoryPath(input.path_prefix) : '/';
    const lines: string[] = [];
    for (const { store, memories } of await this.readAll(input.store))
      for (const m of memories)
        if (m.path.startsWith(prefix))
          lines.push(`${store.name}:${m.path} (${Buffer.byteLength(m.content)} bytes)`);
    return lines.length > 0 ? lines.join('\n') : `No memories under ${prefix}.`;
  }

  async read(input: Input): Promise<string> {
    const { memory } = await this.find(input, false);
    if (!memory) throw new AppError('NOT_FOUND', `No memory at ${memoryPath(input.path)}`);
    return memory.content;
  }

  async search(input: Input): Promise<string> {
    const query = inputText(input.query).toLowerCase();
    if (!query) throw new AppError('INVALID_REQUEST', 'query: give a text to look for');
    const hits: string[] = [];
    for (const { store, memories } of await this.readAll(input.store))
      for (const m of memories)
        m.content.split('\n').forEach((line, n) => {
          if (
            (line.toLowerCase().includes(query) || m.path.toLowerCase().includes(query)) &&
            hits.length < MAX_SEARCH_HITS
          )
            hits.push(`${store.name}:${m.path}:${n + 1}: ${line}`);
        });
    return hits.length > 0 ? hits.join('\n') : `No memory contains "${String(input.query)}".`;
  }

  async write(input: Input): Promise<string> {
    const { store, path, memory } = await this.find(input, true);
    await this.access.write(store.storeId, path, inputText(input.content), memory?.content ?? null);
    return `${memory ? 'Replaced' : 'Created'} ${store.name}:${path}.`;
  }

  async replace(input: Input): Promise<string> {
    const { store, path, memory } = await this.find(input, true);
    if (!memory) throw new AppError('NOT_FOUND', `No memory at ${path}`);
    const old = inputText(input.old_str);
    const count = old ? memory.content.split(old).length - 1 : 0;
    if (count !== 1)
      throw new AppError(
        'INVALID_REQUEST',
        `old_str must occur exactly once in ${path}; it occurs ${count} times`,
      );
    await this.access.write(
      store.storeId,
      path,
      memory.content.replace(old, () => inputText(input.new_str)),
      memory.content,
    );
    return `Edited ${store.name}:${path}.`;
  }

  async append(input: Input): Promise<string> {
    const { store, path, memory } = await this.find(input, true);
    await this.access.write(
      store.storeId,
      path,
      `${memory?.content ?? ''}${inputText(input.content)}`,
      memory?.content ?? null,
    );
    return `Appended to ${store.name}:${path}.`;
  }

  async delete(input: Input): Promise<string> {
    const { store, path, memory } = await this.find(input, true);
    if (!memory) throw new AppError('NOT_FOUND', `No memory at ${path}`);
    await this.access.write(store.storeId, path, null, memory.content);
    return `Deleted ${store.name}:${path}.`;
  }

  private async readAll(store: unknown) {
    const stores = storesFor(this.stores, store, false);
    return Promise.all(
      stores.map(async (s) => ({ store: s, memories: await this.access.memories(s.storeId) })),
    );
  }

  /** The memory at `input.path`: in the store named, or the one store that has it (a write needs one store). */
  private async find(
    input: Input,
    writing: boolean,
  ): Promise<{ store: SessionMemoryStore; path: string; memory?: StoredMemory }> {
    const path = memoryPath(input.path);
    const stores = storesFor(this.stores, input.store, writing);
    const found = [];
    for (const store of stores) {
      const memory = (await this.access.memories(store.storeId)).find((m) => m.path === path);
      if (memory) found.push({ store, path, memory });
    }
    return found[0] ?? { store: stores[0]!, path };
  }
}

async function outcomeOf(run: () => Promise<string>): Promise<ToolOutcome> {
  try {
    return textOutcome(await run());
  } catch (error) {
    if (!AppError.is(error)) throw error;
    return errorOutcome(error.message, error.code === 'NOT_FOUND' ? 'not_found' : 'tool_failed');
  }
}
