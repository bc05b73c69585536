import { describe, expect, it } from 'vitest';
import { normalizeAgentTools, type MemoryToolset } from '@agentry/contracts';
import type { SessionMemoryStore } from '../mounts/resource-mounts.js';
import type { MemoryStoreAccess } from './memory-store-access.js';
import { memoryTools } from './memory-tools.js';

const toolset = (params: Record<string, unknown>): MemoryToolset =>
  normalizeAgentTools([{ type: 'memory_toolset_20261030', ...params } as never])[0] as MemoryToolset;

const store = (access: SessionMemoryStore['access']): SessionMemoryStore => ({
  storeId: `memstore_${access}`,
  name: access,
  access,
});

const memories = new Map<string, string>([['/a.md', 'alpha\nbeta\n']]);
const access: MemoryStoreAccess = {
  memories: () => Promise.resolve([...memories].map(([path, content]) => ({ path, content }))),
  write: (_store, path, content) => {
    if (content === null) memories.delete(path);
    else memories.set(path, content);
    return Promise.resolve();
  },
};

const names = (tools: { name: string }[]) => tools.map((t) => t.name);

describe('memoryTools', () => {
  it('offers every tool, without asking, for an entry with only its type and a read_write store', () => {
    const tools = memoryTools(toolset({}), [store('read_write')], access);
    expect(names(tools)).toEqual([
      'memory_list',
      'memory_read',
      'memory_search',
      'memory_write',
      'memory_str_replace',
      'memory_append',
      'memory_delete',
    ]);
    expect(new Set(tools.map((t) => t.defaultPermission))).toEqual(new Set(['always_allow']));
  });

  it('leaves out the writing tools when every store is read_only, and every tool without a store', () => {
    expect(names(memoryTools(toolset({}), [store('read_only')], access))).toEqual([
      'memory_list',
      'memory_read',
      'memory_search',
    ]);
    expect(memoryTools(toolset({}), [], access)).toEqual([]);
  });

  it('applies per-tool configs over the default: disabled tools are not offered, always_ask asks', () => {
    const tools = memoryTools(
      toolset({
        default_config: { enabled: false },
        configs: [
          { name: 'memory_read', enabled: true },
          { name: 'memory_delete', enabled: true, permission_policy: { type: 'always_ask' } },
        ],
      }),
      [store('read_write')],
      access,
    );
    expect(tools.map((t) => [t.name, t.defaultPermission])).toEqual([
      ['memory_read', 'always_allow'],
      ['memory_delete', 'always_ask'],
    ]);
  });

  it('str_replace refuses a text that does not occur exactly once, as an error result', async () => {
    const replace = memoryTools(toolset({}), [store('read_write')], access).find(
      (t) => t.name === 'memory_str_replace',
    )!;
    const outcome = await replace.execute({ path: '/a.md', old_str: 'gamma', new_str: 'x' }, {} as never);
    expect(outcome).toMatchObject({ status: 'error' });
    expect(JSON.stringify(outcome)).toContain('old_str must occur exactly once in /a.md; it occurs 0 times');
    const done = await replace.execute({ path: '/a.md', old_str: 'beta', new_str: 'gamma' }, {} as never);
    expect(done).toMatchObject({ status: 'ok' });
    expect(memories.get('/a.md')).toBe('alpha\ngamma\n');
  });
});
