/** What to read ahead in one round trip: entries by path, the children of some directories, whole subtrees. */
export interface ReadAheadPlan {
  /** Paths whose entry (and content, for a small file) is read; absent ones are remembered as absent. */
  paths: readonly string[];
  /** Directories among `paths` whose direct children are read. */
  children?: readonly string[];
  /** Directories among `paths` whose whole subtree is read. */
  trees?: readonly string[];
}

/** A row of the read-ahead query: an entry, with its content when it is a planned file small enough. */
export interface ReadAheadRow {
  path: string;
  parent: string;
  kind: 'file' | 'dir';
  size: number | string;
  version: string;
  updated_ms: number;
  content: Buffer | null;
}

/** Files larger than this are not read ahead: their reads go to the database as usual. */
export const READ_AHEAD_MAX_FILE_BYTES = 256 * 1024;

type Listing = { kind: 'children' | 'tree'; path: string };

/**
 * Answers read-ahead rows, each question at most once: a second read of the same path goes to the
 * database, so the answers are as fresh as the first reads of a fresh workspace would be. Any write
 * through the workspace drops them all.
 */
export class ReadAhead {
  private readonly entries = new Map<string, ReadAheadRow | null>();
  private readonly contents = new Map<string, Buffer>();
  private readonly listings = new Map<string, ReadAheadRow[]>();

  constructor(plan: ReadAheadPlan, rows: readonly ReadAheadRow[]) {
    const byPath = new Map(rows.map((row) => [row.path, row]));
    for (const path of plan.paths) {
      const row = byPath.get(path) ?? null;
      this.entries.set(path, row);
      if (row?.kind === 'file' && row.content) this.contents.set(path, row.content);
    }
    for (const path of plan.children ?? [])
      this.listings.set(
        key({ kind: 'children', path }),
        rows.filter((r) => r.parent === path),
      );
    for (const path of plan.trees ?? [])
      this.listings.set(
        key({ kind: 'tree', path }),
        rows.filter((r) => r.path.startsWith(`${path}/`)),
      );
  }

  /** The entry at `path` (null: known to be absent), or undefined when it was not read ahead. */
  takeEntry(path: string): ReadAheadRow | null | undefined {
    return take(this.entries, path);
  }

  /** The content of the file at `path`, or undefined when it was not read ahead. */
  takeContent(path: string): Buffer | undefined {
    return take(this.contents, path);
  }

  /** The entries under `path` (direct children or whole subtree), or undefined when not read ahead. */
  takeListing(path: string, recursive: boolean): ReadAheadRow[] | undefined {
    return take(this.listings, key({ kind: recursive ? 'tree' : 'children', path }));
  }

  /** True (once) when the entry at `path` was read ahead and found absent. */
  takeAbsent(path: string): boolean {
    if (this.entries.get(path) !== null) return false;
    this.entries.delete(path);
    return true;
  }
}

function key(listing: Listing): string {
  return `${listing.kind}:${listing.path}`;
}

function take<V>(map: Map<string, V>, k: string): V | undefined {
  if (!map.has(k)) return undefined;
  const value = map.get(k)!;
  map.delete(k);
  return value;
}
