import type { FileStat, GrepMatch, GrepOptions, ListOptions, WorkspaceFs, WriteOptions } from '../port.js';
import { WorkspaceErrors } from '../core/workspace-errors.js';
import { byPath, filterListing, grepGlobMatches, listIsRecursive } from '../core/list-filter.js';
import {
  ancestorPaths,
  isWithinPath,
  joinWorkspacePath,
  normalizeWorkspacePath,
  relativeTo,
} from '../path/path-guard.js';
import { ReadOnlyWorkspaceFs } from './read-only-workspace-fs.js';

export interface WorkspaceMount {
  /** Where the mount appears ("" is the root mount, which is required). */
  prefix: string;
  fs: WorkspaceFs;
  readOnly?: boolean;
}

interface Route {
  mount: Required<WorkspaceMount>;
  inner: string;
}

const rebase =
  (prefix: string) =>
  (s: FileStat): FileStat => ({ ...s, path: joinWorkspacePath(prefix, s.path) });

/**
 * A mount table: each path goes to the mount with the longest matching prefix. Read-only mounts refuse
 * writes with READ_ONLY; moves between mounts copy then delete.
 */
export class MountedWorkspaceFs implements WorkspaceFs {
  private readonly mounts: Required<WorkspaceMount>[];

  constructor(mounts: WorkspaceMount[]) {
    this.mounts = mounts
      .map((m) => {
        const readOnly = m.readOnly ?? m.fs.readOnly;
        return {
          prefix: normalizeWorkspacePath(m.prefix),
          fs: readOnly && !m.fs.readOnly ? new ReadOnlyWorkspaceFs(m.fs) : m.fs,
          readOnly,
        };
      })
      .sort((a, b) => b.prefix.length - a.prefix.length);
    if (!this.mounts.some((m) => m.prefix === ''))
      throw WorkspaceErrors.invalid('A mount table needs a root mount (prefix "")');
    if (new Set(this.mounts.map((m) => m.prefix)).size !== this.mounts.length)
      throw WorkspaceErrors.invalid('Duplicate mount prefix');
  }

  get readOnly(): boolean {
    return this.mounts.every((m) => m.readOnly);
  }

  private route(path: string): Route {
    const normalized = normalizeWorkspacePath(path);
    const mount = this.mounts.find((m) => isWithinPath(normalized, m.prefix))!;
    return { mount, inner: relativeTo(normalized, mount.prefix) };
  }

  private writable(path: string): Route {
    const route = this.route(path);
    const full = joinWorkspacePath(route.mount.prefix, route.inner);
    if (route.mount.readOnly) throw WorkspaceErrors.readOnly(full);
    if (route.inner === '' && route.mount.prefix !== '')
      throw WorkspaceErrors.invalid(`${full} is a mount point`);
    return route;
  }

  /** Mounts strictly below `dir`, with the synthetic directories that lead to them. */
  private mountsBelow(dir: string): Required<WorkspaceMount>[] {
    return this.mounts.filter((m) => m.prefix !== dir && m.prefix !== '' && isWithinPath(m.prefix, dir));
  }

  async readText(path: string): Promise<string> {
    const r = this.route(path);
    return r.mount.fs.readText(r.inner);
  }
  async readBytes(path: string): Promise<Uint8Array> {
    const r = this.route(path);
    return r.mount.fs.readBytes(r.inner);
  }
  async *readStream(path: string): AsyncIterable<Uint8Array> {
    const r = this.route(path);
    yield* r.mount.fs.readStream(r.inner);
  }
  async writeText(path: string, content: string, options?: WriteOptions): Promise<FileStat> {
    const r = this.writable(path);
    return rebase(r.mount.prefix)(await r.mount.fs.writeText(r.inner, content, options));
  }
  async writeBytes(path: string, content: Uint8Array, options?: WriteOptions): Promise<FileStat> {
    const r = this.writable(path);
    return rebase(r.mount.prefix)(await r.mount.fs.writeBytes(r.inner, content, options));
  }
  async appendText(path: string, content: string): Promise<FileStat> {
    const r = this.writable(path);
    return rebase(r.mount.prefix)(await r.mount.fs.appendText(r.inner, content));
  }
  async stat(path: string): Promise<FileStat | null> {
    const r = this.route(path);
    const s = await r.mount.fs.stat(r.inner);
    if (s) return rebase(r.mount.prefix)(s);
    const full = joinWorkspacePath(r.mount.prefix, r.inner);
    // Directories that only exist because a mount sits beneath them.
    return this.mountsBelow(full).length > 0
      ? { path: full, kind: 'directory', size: 0, version: '0', modifiedAt: new Date(0) }
      : null;
  }
  async exists(path: string): Promise<boolean> {
    return (await this.stat(path)) !== null;
  }

  async list(path: string, options: ListOptions = {}): Promise<FileStat[]> {
    const r = this.route(path);
    const dir = joinWorkspacePath(r.mount.prefix, r.inner);
    const recursive = listIsRecursive(options);
    const below = this.mountsBelow(dir);
    const own = await r.mount.fs.list(r.inner, { recursive }).catch((error: unknown) => {
      if (below.length > 0 && (error as { code?: string }).code === 'NOT_FOUND') return [];
      throw error;
    });
    // Entries of the owning mount hidden by a nested mount are dropped; the nested mount shows instead.
    const merged = new Map<string, FileStat>();
    for (const s of own.map(rebase(r.mount.prefix)))
      if (!below.some((m) => isWithinPath(s.path, m.prefix))) merged.set(s.path, s);
    for (const m of below) {
      for (const p of [...ancestorPaths(m.prefix), m.prefix]) {
        if (!isWithinPath(p, dir) || p === dir) continue;
        if (!recursive && relativeTo(p, dir).includes('/')) continue;
        if (!merged.has(p) || p === m.prefix)
          merged.set(p, { path: p, kind: 'directory', size: 0, version: '0', modifiedAt: new Date(0) });
      }
      if (recursive)
        for (const s of await m.fs.list('', { recursive: true }))
          merged.set(joinWorkspacePath(m.prefix, s.path), rebase(m.prefix)(s));
    }
    return filterListing([...merged.values()].sort(byPath), dir, options);
  }

  async grep(pattern: string | RegExp, options: GrepOptions = {}): Promise<GrepMatch[]> {
    const r = this.route(options.path ?? '');
    const dir = joinWorkspacePath(r.mount.prefix, r.inner);
    const max = options.maxMatches ?? 1000;
    const below = this.mountsBelow(dir);
    const targets: [Required<WorkspaceMount>, string][] = [
      [r.mount, r.inner],
      ...below.map((m): [Required<WorkspaceMount>, string] => [m, '']),
    ];
    const out: GrepMatch[] = [];
    for (const [mount, inner] of targets) {
      const matches = await mount.fs.grep(pattern, { ignoreCase: options.ignoreCase, path: inner });
      for (const m of matches) {
        const full = joinWorkspacePath(mount.prefix, m.path);
        if (mount === r.mount && below.some((b) => isWithinPath(full, b.prefix))) continue;
        if (grepGlobMatches(full, dir, options.glob)) out.push({ ...m, path: full });
      }
    }
    return out.sort((a, b) => byPath(a, b) || a.line - b.line).slice(0, max);
  }

  async move(from: string, to: string, options: { overwrite?: boolean } = {}): Promise<void> {
    const source = this.writable(from);
    const target = this.writable(to);
    if (source.mount === target.mount) return source.mount.fs.move(source.inner, target.inner, options);
    const stat = await source.mount.fs.stat(source.inner);
    if (!stat) throw WorkspaceErrors.notFound(from);
    if (!options.overwrite && (await target.mount.fs.exists(target.inner))) throw WorkspaceErrors.exists(to);
    const files =
      stat.kind === 'file'
        ? [stat]
        : (await source.mount.fs.list(source.inner, { recursive: true })).filter((s) => s.kind === 'file');
    if (stat.kind === 'directory') await target.mount.fs.mkdir(target.inner);
    for (const f of files) {
      const dest = joinWorkspacePath(target.inner, relativeTo(f.path, source.inner));
      await target.mount.fs.writeBytes(dest, await source.mount.fs.readBytes(f.path));
    }
    await source.mount.fs.delete(source.inner, { recursive: true });
  }

  async delete(path: string, options?: { recursive?: boolean }): Promise<void> {
    const r = this.writable(path);
    return r.mount.fs.delete(r.inner, options);
  }
  async mkdir(path: string): Promise<void> {
    const r = this.route(path);
    if (r.inner === '') return;
    return this.writable(path).mount.fs.mkdir(r.inner);
  }
}
