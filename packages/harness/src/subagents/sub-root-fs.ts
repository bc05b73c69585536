import { AppError } from '@agentry/contracts';
import type {
  FileStat,
  GrepMatch,
  GrepOptions,
  ListOptions,
  WorkspaceFs,
  WriteOptions,
} from '@agentry/workspace';

/**
 * A view of a workspace rooted at one of its folders (an isolated sub-agent's `subagents_ws/<task id>/`).
 * Paths are checked here before the parent's own guard, because `..` that stays inside the parent
 * workspace would still leave the sub-root.
 */
export class SubRootFs implements WorkspaceFs {
  readonly readOnly: boolean;
  private readonly root: string;

  constructor(
    private readonly parent: WorkspaceFs,
    root: string,
  ) {
    this.root = root.replace(/\/+$/, '');
    this.readOnly = parent.readOnly;
  }

  private inner(path: string): string {
    if (path.startsWith('/') || path.includes('\0') || path.includes('\\')) {
      throw new AppError('PATH_ESCAPE', `Path "${path}" must be relative to the workspace`);
    }
    const parts: string[] = [];
    for (const part of path.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (parts.length === 0) throw new AppError('PATH_ESCAPE', `Path "${path}" leaves the workspace`);
        parts.pop();
      } else parts.push(part);
    }
    return parts.length === 0 ? this.root : `${this.root}/${parts.join('/')}`;
  }

  private outer(path: string): string {
    if (path === this.root) return '';
    return path.startsWith(`${this.root}/`) ? path.slice(this.root.length + 1) : path;
  }

  private restat(stat: FileStat): FileStat {
    return { ...stat, path: this.outer(stat.path) };
  }

  async readText(path: string): Promise<string> {
    return this.parent.readText(this.inner(path));
  }
  async readBytes(path: string): Promise<Uint8Array> {
    return this.parent.readBytes(this.inner(path));
  }
  async *readStream(path: string): AsyncIterable<Uint8Array> {
    yield* this.parent.readStream(this.inner(path));
  }
  async writeText(path: string, content: string, options?: WriteOptions): Promise<FileStat> {
    return this.restat(await this.parent.writeText(this.inner(path), content, options));
  }
  async writeBytes(path: string, content: Uint8Array, options?: WriteOptions): Promise<FileStat> {
    return this.restat(await this.parent.writeBytes(this.inner(path), content, options));
  }
  async appendText(path: string, content: string): Promise<FileStat> {
    return this.restat(await this.parent.appendText(this.inner(path), content));
  }
  async stat(path: string): Promise<FileStat | null> {
    const stat = await this.parent.stat(this.inner(path));
    return stat ? this.restat(stat) : null;
  }
  async exists(path: string): Promise<boolean> {
    return this.parent.exists(this.inner(path));
  }
  async list(path: string, options?: ListOptions): Promise<FileStat[]> {
    const dir = this.inner(path);
    const stats = await this.parent.list(dir, options);
    // Backends may report paths relative to the listed folder; only full paths need re-rooting.
    return stats.map((stat: FileStat) => (stat.path.startsWith(`${this.root}/`) ? this.restat(stat) : stat));
  }
  async grep(pattern: string | RegExp, options: GrepOptions = {}): Promise<GrepMatch[]> {
    const matches = await this.parent.grep(pattern, { ...options, path: this.inner(options.path ?? '') });
    return matches.map((match: GrepMatch) => ({ ...match, path: this.outer(match.path) }));
  }
  async move(from: string, to: string, options?: { overwrite?: boolean }): Promise<void> {
    return this.parent.move(this.inner(from), this.inner(to), options);
  }
  async delete(path: string, options?: { recursive?: boolean }): Promise<void> {
    return this.parent.delete(this.inner(path), options);
  }
  async mkdir(path: string): Promise<void> {
    return this.parent.mkdir(this.inner(path));
  }
}
