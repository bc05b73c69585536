import { AppError } from '@agentry/contracts';
import type { FileStat, GrepMatch, GrepOptions, ListOptions, WorkspaceFs, WriteOptions } from '../port.js';
import { WorkspaceErrors } from '../core/workspace-errors.js';
import { isWithinPath, joinWorkspacePath, normalizeWorkspacePath, relativeTo } from '../path/path-guard.js';

export interface SubtreeView {
  /** The directory of the inner workspace that becomes this view's root (default: its root). */
  dir?: string;
  /** Only these top-level entries of the view are visible (default: all). */
  include?: readonly string[];
}

/**
 * A read-only window on part of another workspace: one directory of it, optionally only some of its
 * top-level entries (an agent's definition files without its other contents). A missing directory is
 * an empty view, so a mount whose source has nothing yet still lists.
 */
export class SubtreeViewFs implements WorkspaceFs {
  readonly readOnly = true;
  private readonly dir: string;

  constructor(
    private readonly inner: WorkspaceFs,
    private readonly view: SubtreeView = {},
  ) {
    this.dir = normalizeWorkspacePath(view.dir ?? '');
  }

  private visible(path: string): boolean {
    return !this.view.include || path === '' || this.view.include.includes(path.split('/')[0]!);
  }

  /** The inner path of a view path; NOT_FOUND for what the view hides. */
  private inside(path: string): string {
    const normalized = normalizeWorkspacePath(path);
    if (!this.visible(normalized)) throw WorkspaceErrors.notFound(normalized);
    return joinWorkspacePath(this.dir, normalized);
  }

  private outside = (stat: FileStat): FileStat => ({ ...stat, path: relativeTo(stat.path, this.dir) });

  private ownedByView = (path: string): boolean =>
    isWithinPath(path, this.dir) && this.visible(relativeTo(path, this.dir));

  async readText(path: string): Promise<string> {
    return this.inner.readText(this.inside(path));
  }
  async readBytes(path: string): Promise<Uint8Array> {
    return this.inner.readBytes(this.inside(path));
  }
  async *readStream(path: string): AsyncIterable<Uint8Array> {
    yield* this.inner.readStream(this.inside(path));
  }

  async stat(path: string): Promise<FileStat | null> {
    const normalized = normalizeWorkspacePath(path);
    if (normalized === '')
      return { path: '', kind: 'directory', size: 0, version: '0', modifiedAt: new Date(0) };
    if (!this.visible(normalized)) return null;
    const stat = await this.inner.stat(joinWorkspacePath(this.dir, normalized));
    return stat ? this.outside(stat) : null;
  }
  async exists(path: string): Promise<boolean> {
    return (await this.stat(path)) !== null;
  }

  async list(path: string, options: ListOptions = {}): Promise<FileStat[]> {
    const target = this.inside(path);
    const entries = await this.inner.list(target, options).catch((error: unknown) => {
      if (target === this.dir && AppError.is(error, 'NOT_FOUND')) return [];
      throw error;
    });
    return entries.filter((s) => this.ownedByView(s.path)).map(this.outside);
  }

  async grep(pattern: string | RegExp, options: GrepOptions = {}): Promise<GrepMatch[]> {
    const target = this.inside(options.path ?? '');
    const matches = await this.inner.grep(pattern, { ...options, path: target }).catch((error: unknown) => {
      if (target === this.dir && AppError.is(error, 'NOT_FOUND')) return [];
      throw error;
    });
    return matches
      .filter((m) => this.ownedByView(m.path))
      .map((m) => ({ ...m, path: relativeTo(m.path, this.dir) }));
  }

  private refuse(path: string): Promise<never> {
    return Promise.reject(WorkspaceErrors.readOnly(normalizeWorkspacePath(path)));
  }
  writeText(path: string, _content?: string, _options?: WriteOptions): Promise<FileStat> {
    return this.refuse(path);
  }
  writeBytes(path: string, _content?: Uint8Array, _options?: WriteOptions): Promise<FileStat> {
    return this.refuse(path);
  }
  appendText(path: string, _content?: string): Promise<FileStat> {
    return this.refuse(path);
  }
  move(from: string, _to?: string, _options?: { overwrite?: boolean }): Promise<void> {
    return this.refuse(from);
  }
  delete(path: string, _options?: { recursive?: boolean }): Promise<void> {
    return this.refuse(path);
  }
  mkdir(path: string): Promise<void> {
    return this.refuse(path);
  }
}
