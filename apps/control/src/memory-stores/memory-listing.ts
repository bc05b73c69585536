import type { MemoryListItem } from '@agentry/contracts';

type Entry = { path: string; item: MemoryListItem };

/**
 * Folds memories deeper than `depth` segments below the prefix into one `memory_prefix` entry per
 * directory, like a directory listing; without a depth, or with depth 0 (the SDK's default), every
 * memory is listed.
 */
export function foldByDepth(entries: Entry[], pathPrefix: string, depth: number | undefined): Entry[] {
  if (depth === undefined || depth === 0) return entries;
  // Segments the prefix fixes completely ("/a/" fixes one, "/a" and "/" fix none).
  const base = pathPrefix.split('/').length - 2;
  const seen = new Set<string>();
  const out: Entry[] = [];
  for (const entry of entries) {
    const segments = entry.path.split('/').slice(1);
    if (segments.length - base <= depth) {
      out.push(entry);
      continue;
    }
    const dir = `/${segments.slice(0, base + depth).join('/')}/`;
    if (seen.has(dir)) continue;
    seen.add(dir);
    out.push({ path: dir, item: { type: 'memory_prefix', path: dir } });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
