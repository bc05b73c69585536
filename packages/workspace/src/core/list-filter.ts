import { minimatch } from 'minimatch';
import type { FileStat, ListOptions } from '../port.js';
import { relativeTo } from '../path/path-guard.js';

/** A glob that spans directories only makes sense recursively, so it implies `recursive`. */
export function listIsRecursive(options: ListOptions): boolean {
  const glob = options.glob;
  return options.recursive ?? (glob !== undefined && (glob.includes('/') || glob.includes('**')));
}

/** Applies the glob (relative to `dir`) and the limit of a listing, keeping path order. */
export function filterListing(entries: FileStat[], dir: string, options: ListOptions): FileStat[] {
  const glob = options.glob;
  const kept =
    glob === undefined
      ? entries
      : entries.filter((e) => minimatch(relativeTo(e.path, dir), glob, { dot: true }));
  return options.limit !== undefined ? kept.slice(0, options.limit) : kept;
}

/** Grep's glob: without a slash it matches a file name at any depth. */
export function grepGlobMatches(path: string, dir: string, glob: string | undefined): boolean {
  return (
    glob === undefined ||
    minimatch(relativeTo(path, dir), glob, { dot: true, matchBase: !glob.includes('/') })
  );
}

export const byPath = (a: { path: string }, b: { path: string }): number =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
