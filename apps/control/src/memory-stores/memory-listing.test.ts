import { describe, expect, it } from 'vitest';
import type { MemoryListItem } from '@agentry/contracts';
import { foldByDepth } from './memory-listing.js';

const memory = (path: string) => ({ path, item: { type: 'memory_prefix', path } as MemoryListItem });
const paths = (entries: { path: string }[]) => entries.map((e) => e.path);
const entries = ['/notes/a.md', '/notes/deep/b.md', '/notes/deep/er/c.md', '/top.md'].map(memory);

describe('foldByDepth', () => {
  it('lists every memory below the prefix at depth 0 (the SDK default) and without a depth', () => {
    expect(paths(foldByDepth(entries, '/', 0))).toEqual(paths(entries));
    expect(paths(foldByDepth(entries, '/', undefined))).toEqual(paths(entries));
  });

  it('folds deeper memories into one prefix per directory at depth 1 and 2', () => {
    expect(paths(foldByDepth(entries, '/', 1))).toEqual(['/notes/', '/top.md']);
    expect(paths(foldByDepth(entries.slice(0, 3), '/notes/', 1))).toEqual(['/notes/a.md', '/notes/deep/']);
    expect(paths(foldByDepth(entries.slice(0, 3), '/notes/', 2))).toEqual([
      '/notes/a.md',
      '/notes/deep/b.md',
      '/notes/deep/er/',
    ]);
  });
});
