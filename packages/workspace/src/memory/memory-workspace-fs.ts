import type { FileStat } from '../port.js';
import { BaseWorkspaceFs, type BaseWorkspaceOptions } from '../core/base-workspace-fs.js';
import { settle } from '../core/settle.js';
import { WorkspaceErrors } from '../core/workspace-errors.js';
import { ancestorPaths, isWithinPath, parentPath, relativeTo } from '../path/path-guard.js';

interface MemoryEntry {
  kind: 'file' | 'directory';
  content: Uint8Array;
  version: number;
  modifiedAt: Date;
}

/**
 * A workspace held in process memory: tests, embedded harness runs, scratch sessions. Every primitive
 * completes without yielding between check and update, so CAS writes are atomic within the process.
 */
export class MemoryWorkspaceFs extends BaseWorkspaceFs {
  private readonly entries = new Map<string, MemoryEntry>();

  constructor(options: BaseWorkspaceOptions = {}) {
    super(options);
  }

  private toStat(path: string, entry: MemoryEntry): FileStat {
    return {
      path,
      kind: entry.kind,
      size: entry.kind === 'file' ? entry.content.byteLength : 0,
      version: String(entry.version),
      modifiedAt: entry.modifiedAt,
    };
  }

  private lookup(path: string): MemoryEntry | undefined {
    if (path === '')
      return { kind: 'directory', content: new Uint8Array(), version: 0, modifiedAt: new Date(0) };
    return this.entries.get(path);
  }

  private ensureParents(path: string, create: boolean): void {
    for (const ancestor of ancestorPaths(path)) {
      const entry = this.entries.get(ancestor);
      if (entry?.kind === 'file') throw WorkspaceErrors.notDirectory(ancestor);
      if (!entry) {
        if (!create) throw WorkspaceErrors.notFound(parentPath(path));
        this.entries.set(ancestor, {
          kind: 'directory',
          content: new Uint8Array(),
          version: 0,
          modifiedAt: new Date(),
        });
      }
    }
  }

  protected statAt(path: string): Promise<FileStat | null> {
    return settle(() => {
      const entry = this.lookup(path);
      return entry ? this.toStat(path, entry) : null;
    });
  }

  protected readAt(path: string): Promise<Uint8Array> {
    return settle(() => {
      const entry = this.lookup(path);
      if (!entry) throw WorkspaceErrors.notFound(path);
      if (entry.kind === 'directory') throw WorkspaceErrors.isDirectory(path);
      return entry.content.slice();
    });
  }

  protected writeAt(
    path: string,
    content: Uint8Array,
    ifVersion: string | null | undefined,
    createParents: boolean,
  ): Promise<FileStat> {
    return settle(() => {
      const current = this.entries.get(path);
      if (current?.kind === 'directory') throw WorkspaceErrors.isDirectory(path);
      if (ifVersion === null && current) throw WorkspaceErrors.exists(path);
      if (typeof ifVersion === 'string' && String(current?.version ?? '') !== ifVersion) {
        throw WorkspaceErrors.conflict(path, ifVersion, current ? String(current.version) : null);
      }
      this.ensureParents(path, createParents);
      const entry: MemoryEntry = {
        kind: 'file',
        content: content.slice(),
        version: (current?.version ?? 0) + 1,
        modifiedAt: new Date(),
      };
      this.entries.set(path, entry);
      return this.toStat(path, entry);
    });
  }

  protected appendAt(path: string, content: Uint8Array): Promise<FileStat> {
    return settle(() => {
      const current = this.entries.get(path);
      if (current?.kind === 'directory') throw WorkspaceErrors.isDirectory(path);
      const before = current?.content ?? new Uint8Array();
      const size = before.byteLength + content.byteLength;
      if (size > this.maxFileBytes) throw WorkspaceErrors.tooLarge(path, size, this.maxFileBytes);
      this.ensureParents(path, true);
      const merged = new Uint8Array(size);
      merged.set(before);
      merged.set(content, before.byteLength);
      const entry: MemoryEntry = {
        kind: 'file',
        content: merged,
        version: (current?.version ?? 0) + 1,
        modifiedAt: new Date(),
      };
      this.entries.set(path, entry);
      return this.toStat(path, entry);
    });
  }

  protected listAt(path: string, recursive: boolean): Promise<FileStat[]> {
    return settle(() => {
      const dir = this.lookup(path);
      if (!dir) throw WorkspaceErrors.notFound(path);
      if (dir.kind !== 'directory') throw WorkspaceErrors.notDirectory(path);
      const out: FileStat[] = [];
      for (const [entryPath, entry] of this.entries) {
        if (entryPath === path || !isWithinPath(entryPath, path)) continue;
        if (!recursive && relativeTo(entryPath, path).includes('/')) continue;
        out.push(this.toStat(entryPath, entry));
      }
      return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    });
  }

  protected moveAt(from: string, to: string, overwrite: boolean): Promise<void> {
    return settle(() => {
      const source = this.entries.get(from);
      if (!source) throw WorkspaceErrors.notFound(from);
      const existing = this.entries.get(to);
      if (existing && (!overwrite || existing.kind === 'directory' || source.kind === 'directory'))
        throw WorkspaceErrors.exists(to);
      this.ensureParents(to, true);
      const moved = [...this.entries].filter(([p]) => isWithinPath(p, from));
      for (const [p] of moved) this.entries.delete(p);
      for (const [p, entry] of moved) {
        const target = `${to}${p.slice(from.length)}`;
        const replaced = p === from ? existing : undefined;
        this.entries.set(target, {
          ...entry,
          version: Math.max(entry.version, replaced?.version ?? 0) + (entry.kind === 'file' ? 1 : 0),
        });
      }
    });
  }

  protected deleteAt(path: string, recursive: boolean): Promise<void> {
    return settle(() => {
      const entry = this.entries.get(path);
      if (!entry) throw WorkspaceErrors.notFound(path);
      const children = [...this.entries.keys()].filter((p) => p !== path && isWithinPath(p, path));
      if (children.length > 0 && !recursive) throw WorkspaceErrors.notEmpty(path);
      for (const p of children) this.entries.delete(p);
      this.entries.delete(path);
    });
  }

  protected mkdirAt(path: string): Promise<void> {
    return settle(() => {
      const entry = this.entries.get(path);
      if (entry?.kind === 'file') throw WorkspaceErrors.exists(path);
      if (entry) return;
      this.ensureParents(path, true);
      this.entries.set(path, {
        kind: 'directory',
        content: new Uint8Array(),
        version: 0,
        modifiedAt: new Date(),
      });
    });
  }
}
