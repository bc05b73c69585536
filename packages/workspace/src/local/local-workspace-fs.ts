import { createReadStream, linkSync, renameSync, statSync, writeFileSync } from 'node:fs';
import {
  appendFile,
  link,
  lstat,
  utimes,
  mkdir,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  rmdir,
  unlink,
  writeFile,
} from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { FileStat } from '../port.js';
import { BaseWorkspaceFs, type BaseWorkspaceOptions } from '../core/base-workspace-fs.js';
import { KeyedMutex } from '../core/keyed-mutex.js';
import { WorkspaceErrors } from '../core/workspace-errors.js';
import { joinWorkspacePath, parentPath } from '../path/path-guard.js';
import { mapFsError } from './fs-error-mapper.js';
import { readSmallFile, SMALL_FILE_BYTES } from './small-file.js';
import { assertConfined } from './symlink-confinement.js';

export interface LocalWorkspaceOptions extends BaseWorkspaceOptions {
  /** Host directory that is the workspace root; created when missing. */
  root: string;
}

// Writes land in a temp sibling and are renamed into place, so readers never see half a file.
const TEMP_PREFIX = '.agentry-tmp-';

/**
 * A workspace in a host directory. CAS and append are serialized per path within this process; across
 * processes only create-only writes (ifVersion null) stay exact and otherwise the last rename wins (use the
 * Postgres backend where several replicas write).
 */
export class LocalWorkspaceFs extends BaseWorkspaceFs {
  readonly root: string;
  private realRoot: Promise<string> | undefined;
  private readonly locks = new KeyedMutex();

  constructor(options: LocalWorkspaceOptions) {
    super(options);
    this.root = resolve(options.root);
  }

  /** Host path of a guarded logical path. */
  hostPath(path: string): string {
    return path === '' ? this.root : join(this.root, path);
  }

  protected ensureRoot(): Promise<string> {
    this.realRoot ??= mkdir(this.root, { recursive: true }).then(() => realpath(this.root));
    return this.realRoot;
  }

  protected override async confine(path: string): Promise<void> {
    assertConfined(this.hostPath(path), this.root, await this.ensureRoot(), path);
  }

  private toStat(path: string, s: Stats & { ino: number | bigint }): FileStat {
    const version = `${s.ino.toString(36)}.${s.mtimeMs.toString(36)}.${s.size.toString(36)}`;
    return {
      path,
      kind: s.isDirectory() ? 'directory' : 'file',
      size: s.isDirectory() ? 0 : s.size,
      version,
      modifiedAt: s.mtime,
    };
  }

  // Metadata and small files are read and written with the synchronous calls: on a local disk they take
  // microseconds, less than a hand-off to the thread pool and back (docs/decisions.md, "Small file calls").
  private statHost(path: string): Promise<FileStat | null> {
    try {
      const s = statSync(this.hostPath(path), { throwIfNoEntry: false });
      return Promise.resolve(s && (s.isFile() || s.isDirectory()) ? this.toStat(path, s) : null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return Promise.resolve(null);
      return Promise.reject(mapFsError(error, path));
    }
  }

  protected async statAt(path: string): Promise<FileStat | null> {
    return this.statHost(path);
  }

  protected async readAt(path: string): Promise<Uint8Array> {
    try {
      const host = this.hostPath(path);
      return new Uint8Array(readSmallFile(host) ?? (await readFile(host)));
    } catch (error) {
      throw mapFsError(error, path);
    }
  }

  override async *readStream(path: string): AsyncIterable<Uint8Array> {
    const target = await this.resolve(path);
    const s = await this.statHost(target);
    if (!s) throw WorkspaceErrors.notFound(target);
    if (s.kind === 'directory') throw WorkspaceErrors.isDirectory(target);
    for await (const chunk of createReadStream(this.hostPath(target), { highWaterMark: 64 * 1024 })) {
      yield new Uint8Array(chunk as Buffer);
    }
  }

  private async prepareParent(path: string, createParents: boolean): Promise<void> {
    const parent = parentPath(path);
    const existing = await this.statHost(parent);
    if (existing?.kind === 'directory') return;
    if (existing?.kind === 'file') throw WorkspaceErrors.notDirectory(parent);
    if (!createParents) throw WorkspaceErrors.notFound(parent);
    try {
      await mkdir(this.hostPath(parent), { recursive: true });
    } catch (error) {
      throw mapFsError(error, parent);
    }
  }

  protected writeAt(
    path: string,
    content: Uint8Array,
    ifVersion: string | null | undefined,
    createParents: boolean,
  ): Promise<FileStat> {
    return this.locks.run(path, async () => {
      const current = await this.statHost(path);
      this.checkWrite(path, current, ifVersion);
      await this.prepareParent(path, createParents);
      const temp = this.hostPath(
        joinWorkspacePath(parentPath(path), `${TEMP_PREFIX}${randomBytes(6).toString('hex')}`),
      );
      try {
        // Create-only writes use link(), which fails if the name exists, so they stay exact across processes.
        if (content.byteLength <= SMALL_FILE_BYTES) {
          writeFileSync(temp, content);
          if (ifVersion === null) {
            try {
              linkSync(temp, this.hostPath(path));
            } finally {
              await rm(temp, { force: true });
            }
          } else renameSync(temp, this.hostPath(path));
        } else {
          await writeFile(temp, content);
          if (ifVersion === null)
            await link(temp, this.hostPath(path)).finally(() => rm(temp, { force: true }));
          else await rename(temp, this.hostPath(path));
        }
      } catch (error) {
        await rm(temp, { force: true });
        throw mapFsError(error, path);
      }
      const written = (await this.statHost(path)) ?? Promise.reject(WorkspaceErrors.notFound(path));
      // A reused inode, a coarse clock and an equal size could repeat the old version; nudge mtime so CAS sees a change.
      if (current && (await written).version === current.version) {
        const bumped = new Date(current.modifiedAt.getTime() + 1);
        await utimes(this.hostPath(path), bumped, bumped);
        return (await this.statHost(path)) ?? Promise.reject(WorkspaceErrors.notFound(path));
      }
      return written;
    });
  }

  protected appendAt(path: string, content: Uint8Array): Promise<FileStat> {
    return this.locks.run(path, async () => {
      const current = await this.statHost(path);
      if (current?.kind === 'directory') throw WorkspaceErrors.isDirectory(path);
      const size = (current?.size ?? 0) + content.byteLength;
      if (size > this.maxFileBytes) throw WorkspaceErrors.tooLarge(path, size, this.maxFileBytes);
      if (!current) await this.prepareParent(path, true);
      try {
        await appendFile(this.hostPath(path), content);
      } catch (error) {
        throw mapFsError(error, path);
      }
      return (await this.statHost(path)) ?? Promise.reject(WorkspaceErrors.notFound(path));
    });
  }

  protected async listAt(path: string, recursive: boolean): Promise<FileStat[]> {
    const dir = await this.statHost(path);
    if (!dir) throw WorkspaceErrors.notFound(path);
    if (dir.kind !== 'directory') throw WorkspaceErrors.notDirectory(path);
    const out: FileStat[] = [];
    await this.walk(path, recursive, out);
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  private async walk(dir: string, recursive: boolean, out: FileStat[]): Promise<void> {
    const names = (await readdir(this.hostPath(dir)).catch(() => [] as string[])).filter(
      (n) => !n.startsWith(TEMP_PREFIX),
    );
    const entries = await Promise.all(
      names.map(async (name) => {
        const child = joinWorkspacePath(dir, name.normalize('NFC'));
        return { child, link: await lstat(this.hostPath(child)).catch(() => null) };
      }),
    );
    for (const { child, link } of entries) {
      if (!link) continue;
      // Symlinks are listed only when they stay inside the root, and never descended into (no loops).
      if (link.isSymbolicLink()) {
        const ok = await this.confine(child).then(
          () => true,
          () => false,
        );
        const target = ok ? await this.statHost(child) : null;
        if (target) out.push(target);
        continue;
      }
      if (!link.isFile() && !link.isDirectory()) continue;
      out.push(this.toStat(child, link));
      if (recursive && link.isDirectory()) await this.walk(child, true, out);
    }
  }

  protected moveAt(from: string, to: string, overwrite: boolean): Promise<void> {
    return this.locks.run(to, async () => {
      const source = await lstat(this.hostPath(from)).catch(() => null);
      if (!source) throw WorkspaceErrors.notFound(from);
      const existing = await this.statHost(to);
      if (existing && (!overwrite || existing.kind === 'directory' || source.isDirectory()))
        throw WorkspaceErrors.exists(to);
      await this.prepareParent(to, true);
      try {
        await rename(this.hostPath(from), this.hostPath(to));
      } catch (error) {
        throw mapFsError(error, to);
      }
    });
  }

  protected async deleteAt(path: string, recursive: boolean): Promise<void> {
    const host = this.hostPath(path);
    const s = await lstat(host).catch(() => null);
    if (!s) throw WorkspaceErrors.notFound(path);
    try {
      if (!s.isDirectory()) await unlink(host);
      else if (recursive) await rm(host, { recursive: true, force: true });
      else await rmdir(host);
    } catch (error) {
      throw mapFsError(error, path);
    }
  }

  protected async mkdirAt(path: string): Promise<void> {
    const existing = await this.statHost(path);
    if (existing?.kind === 'directory') return;
    if (existing) throw WorkspaceErrors.exists(path);
    await this.prepareParent(path, true);
    try {
      await mkdir(this.hostPath(path), { recursive: true });
    } catch (error) {
      throw mapFsError(error, path);
    }
  }
}
