import { constants } from 'node:fs';
import { chmod, mkdir, open, readFile, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { lstatOrNull, readSmallFile } from '@agentry/workspace';
import type { DurableCopy, EntryWrite, StoredEntry } from './durable-copy.js';
import {
  changedSince,
  entryOf,
  scanTree,
  type EntryFilter,
  type LocalEntry,
  type LocalTree,
} from './local-tree.js';

/** Files up to this size are stored inline in their row; larger ones in chunks of LARGE_CHUNK_BYTES. */
const INLINE_MAX_BYTES = 1024 * 1024;
const LARGE_CHUNK_BYTES = 4 * 1024 * 1024;
/** Content carried by one batched statement, so a sync of many small files is a few round trips. */
const BATCH_BYTES = 8 * 1024 * 1024;
const BATCH_ENTRIES = 1000;

/** What one sync stored: the entries written or removed and the content bytes sent. */
interface SyncStats {
  written: number;
  removed: number;
  bytes: number;
}

/** A stored path is relative and plain: no `..`, no empty or absolute parts (never trusted blindly). */
const plain = (path: string) => path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');

/**
 * Keeps a worker's local copy of a session directory and its durable copy in step: `restore` makes the local
 * directory exactly the durable one (modes, symlinks, empty directories, large files), `sync` stores what
 * changed since (an lstat index of size, mtime, ctime, inode and mode tells), nothing else.
 */
export class WorkspaceMirror {
  private seen: LocalTree = new Map();
  /** With `sameContentIsUnchanged`: the content of each file as stored, to compare a rewritten file with. */
  private readonly stored = new Map<string, Buffer>();

  constructor(
    private readonly local: string,
    private readonly durable: DurableCopy,
    private readonly include: EntryFilter = () => true,
    /**
     * A file rewritten with the content it had is not stored again: for small files rewritten on every
     * call (the shell's saved cwd and variables), which mostly come out the same.
     */
    private readonly sameContentIsUnchanged = false,
  ) {}

  async restore(): Promise<void> {
    const stored = (await this.durable.list()).filter((e) => plain(e.path) && this.include(e.path));
    await mkdir(this.local, { recursive: true });
    this.stored.clear();
    for (const path of (await scanTree(this.local, this.include)).keys())
      if (!path.includes('/')) await rm(join(this.local, path), { recursive: true, force: true });
    const dirs = stored.filter((e) => e.kind === 'dir');
    for (const dir of dirs) await mkdir(join(this.local, dir.path), { recursive: true });
    await this.restoreFiles(stored.filter((e) => e.kind === 'file'));
    // Symlinks last, so nothing is ever written through one; then directory modes, deepest first.
    for (const link of stored.filter((e) => e.kind === 'symlink'))
      await symlink(link.target ?? '', join(this.local, link.path));
    for (const dir of dirs.reverse()) await chmod(join(this.local, dir.path), dir.mode);
    this.seen = await scanTree(this.local, this.include);
  }

  /** Stores entries created or changed since the last restore or sync, and removes those gone. */
  async sync(): Promise<SyncStats> {
    const now = await scanTree(this.local, this.include);
    const stats = await this.store(
      [...now].filter(([path, entry]) => changedSince(entry, this.seen.get(path))),
    );
    const gone = [...this.seen.keys()].filter((path) => !now.has(path));
    await this.durable.remove(gone);
    for (const path of gone) this.stored.delete(path);
    stats.removed = gone.length;
    this.seen = now;
    return stats;
  }

  /**
   * Stores the one file a call wrote at `path` (relative to the root) and the directories on its way,
   * without a look at the rest of the tree. Null when the path alone cannot tell what changed (not a plain
   * path, a symlink or a non-directory on the way, no changed file there): the caller syncs everything.
   */
  async syncPath(path: string): Promise<SyncStats | null> {
    if (!plain(path) || !this.include(path)) return null;
    const parts = path.split('/');
    const ways = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    const entries: Array<[string, LocalEntry]> = [];
    for (const [i, way] of ways.entries()) {
      const full = join(this.local, way);
      const info = lstatOrNull(full);
      const entry = info && (await entryOf(info, full));
      const last = i === ways.length - 1;
      if (!entry || entry.kind !== (last ? 'file' : 'dir')) return null;
      entries.push([way, entry]);
    }
    const [, file] = entries.at(-1)!;
    if (!changedSince(file, this.seen.get(path))) return null;
    // The one file is read at once (see readSmallFile); a larger one goes in chunks as in a whole sync.
    const stats = await this.store(
      entries.filter(([way, entry]) => changedSince(entry, this.seen.get(way))),
      (at) => this.readOne(at),
    );
    for (const [way, entry] of entries) this.seen.set(way, entry);
    return stats;
  }

  /** Writes these entries (as they are now) to the durable copy, a few round trips for many small files. */
  private async store(
    changed: ReadonlyArray<[string, LocalEntry]>,
    read: (path: string) => Promise<Buffer | null> = (path) => this.readNoFollow(path),
  ): Promise<SyncStats> {
    const stats: SyncStats = { written: 0, removed: 0, bytes: 0 };
    let batch: EntryWrite[] = [];
    /** Contents kept in `stored` once every write of this sync went through. */
    const storing = new Map<string, Buffer>();
    let batchBytes = 0;
    const flush = async () => {
      await this.durable.putEntries(batch);
      batch = [];
      batchBytes = 0;
    };
    for (const [path, entry] of changed) {
      if (entry.kind === 'file' && entry.size > INLINE_MAX_BYTES) {
        stats.written++;
        stats.bytes += await this.durable.putLarge(path, entry.mode, this.chunks(path));
        continue;
      }
      const content = entry.kind === 'file' ? await read(path) : undefined;
      if (entry.kind === 'file' && !content) continue;
      if (content && this.sameContentIsUnchanged) {
        const before = this.seen.get(path);
        if (before?.kind === 'file' && before.mode === entry.mode && this.stored.get(path)?.equals(content))
          continue;
        storing.set(path, content);
      }
      stats.written++;
      batch.push({
        path,
        kind: entry.kind,
        mode: entry.mode,
        target: entry.target,
        content: content ?? undefined,
        size: entry.size,
      });
      batchBytes += content?.length ?? 0;
      stats.bytes += content?.length ?? 0;
      if (batchBytes >= BATCH_BYTES || batch.length >= BATCH_ENTRIES) await flush();
    }
    await flush();
    for (const [path, content] of storing) this.stored.set(path, content);
    return stats;
  }

  private async restoreFiles(files: StoredEntry[]): Promise<void> {
    const inline = files.filter((f) => !f.chunked || f.size === 0);
    for (let i = 0; i < inline.length; i += BATCH_ENTRIES) {
      const part = inline.slice(i, i + BATCH_ENTRIES);
      const contents = await this.durable.contents(part.map((f) => f.path));
      for (const file of part) {
        const content = contents.get(file.path) ?? Buffer.alloc(0);
        if (this.sameContentIsUnchanged) this.stored.set(file.path, content);
        await this.writeNew(file, [content]);
      }
    }
    for (const file of files.filter((f) => f.chunked && f.size > 0))
      await this.writeNew(file, this.durable.chunksOf(file));
  }

  /** Creates the file (O_EXCL: never through a symlink) with its content, then its mode. */
  private async writeNew(file: StoredEntry, chunks: Iterable<Buffer> | AsyncIterable<Buffer>): Promise<void> {
    await mkdir(dirname(join(this.local, file.path)), { recursive: true });
    const handle = await open(join(this.local, file.path), 'wx', 0o600);
    try {
      for await (const chunk of chunks) await handle.write(chunk);
    } finally {
      await handle.close();
    }
    await chmod(join(this.local, file.path), file.mode);
  }

  /** As readNoFollow, a small file read at once with synchronous calls (see readSmallFile). */
  private readOne(path: string): Promise<Buffer | null> {
    try {
      const small = readSmallFile(join(this.local, path), true);
      return small ? Promise.resolve(small) : this.readNoFollow(path);
    } catch {
      return Promise.resolve(null);
    }
  }

  /** A file's content, or null when it is gone or was replaced by something that is not a file. */
  private async readNoFollow(path: string): Promise<Buffer | null> {
    const handle = await open(join(this.local, path), constants.O_RDONLY | constants.O_NOFOLLOW).catch(
      () => null,
    );
    if (!handle) return null;
    try {
      return await readFile(handle);
    } catch {
      return null;
    } finally {
      await handle.close();
    }
  }

  private async *chunks(path: string): AsyncIterable<Buffer> {
    const handle = await open(join(this.local, path), constants.O_RDONLY | constants.O_NOFOLLOW);
    const stream = handle.createReadStream({ highWaterMark: LARGE_CHUNK_BYTES });
    let pending: Buffer[] = [];
    let size = 0;
    for await (const piece of stream as AsyncIterable<Buffer>) {
      pending.push(piece);
      size += piece.length;
      if (size >= LARGE_CHUNK_BYTES) {
        yield Buffer.concat(pending);
        pending = [];
        size = 0;
      }
    }
    if (size > 0) yield Buffer.concat(pending);
  }
}
