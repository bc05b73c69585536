import { AppError } from '@agentry/contracts';
import type {
  FileStat,
  GrepMatch,
  GrepOptions,
  ListOptions,
  WorkspaceFs,
  WriteOptions,
} from '@agentry/workspace';

/** Runs synchronous work as a promise: a throw rejects it, as it would in an async method. */
const settle = <T>(work: () => T): Promise<T> => new Promise((resolve) => resolve(work()));

/** Minimal in-memory WorkspaceFs for unit tests of this package (directories are implied by file paths). */
export class InMemoryFsFixture implements WorkspaceFs {
  readonly readOnly = false;
  readonly files = new Map<string, { content: string; version: number; modifiedAt: Date }>();

  constructor(initial: Record<string, string> = {}) {
    for (const [path, content] of Object.entries(initial))
      this.files.set(this.norm(path), { content, version: 1, modifiedAt: new Date(0) });
  }

  private norm(path: string): string {
    if (path.startsWith('/') || path.split('/').includes('..'))
      throw new AppError('PATH_ESCAPE', `bad path ${path}`);
    return path.replace(/^\.\/?/, '').replace(/\/+$/, '');
  }

  private stats(path: string, entry: { content: string; version: number; modifiedAt: Date }): FileStat {
    return {
      path,
      kind: 'file',
      size: entry.content.length,
      version: String(entry.version),
      modifiedAt: entry.modifiedAt,
    };
  }

  readText(path: string): Promise<string> {
    return settle(() => {
      const entry = this.files.get(this.norm(path));
      if (!entry) throw new AppError('NOT_FOUND', `no such file: ${path}`);
      return entry.content;
    });
  }
  async readBytes(path: string): Promise<Uint8Array> {
    return new TextEncoder().encode(await this.readText(path));
  }
  async *readStream(path: string): AsyncIterable<Uint8Array> {
    yield await this.readBytes(path);
  }
  writeText(path: string, content: string, options: WriteOptions = {}): Promise<FileStat> {
    return settle(() => {
      const key = this.norm(path);
      const current = this.files.get(key);
      if (options.ifVersion !== undefined) {
        const actual = current ? String(current.version) : null;
        if (actual !== options.ifVersion) throw new AppError('CONFLICT', `version mismatch on ${path}`);
      }
      const entry = { content, version: (current?.version ?? 0) + 1, modifiedAt: new Date() };
      this.files.set(key, entry);
      return this.stats(key, entry);
    });
  }
  async writeBytes(path: string, content: Uint8Array, options?: WriteOptions): Promise<FileStat> {
    return this.writeText(path, new TextDecoder().decode(content), options);
  }
  async appendText(path: string, content: string): Promise<FileStat> {
    const current = this.files.get(this.norm(path));
    return this.writeText(path, (current?.content ?? '') + content);
  }
  stat(path: string): Promise<FileStat | null> {
    return settle(() => {
      const key = this.norm(path);
      const entry = this.files.get(key);
      if (entry) return this.stats(key, entry);
      const isDir = [...this.files.keys()].some((p) => p.startsWith(`${key}/`));
      return isDir ? { path: key, kind: 'directory', size: 0, version: '0', modifiedAt: new Date(0) } : null;
    });
  }
  async exists(path: string): Promise<boolean> {
    return (await this.stat(path)) !== null;
  }
  list(path: string, options: ListOptions = {}): Promise<FileStat[]> {
    return settle(() => {
      const dir = this.norm(path);
      const prefix = dir === '' ? '' : `${dir}/`;
      const out = new Map<string, FileStat>();
      for (const [file, entry] of this.files) {
        if (!file.startsWith(prefix)) continue;
        const rest = file.slice(prefix.length);
        const slash = rest.indexOf('/');
        if (options.recursive || slash === -1) out.set(file, this.stats(file, entry));
        if (slash !== -1) {
          const sub = `${prefix}${rest.slice(0, slash)}`;
          out.set(sub, { path: sub, kind: 'directory', size: 0, version: '0', modifiedAt: new Date(0) });
        }
      }
      if (out.size === 0 && dir !== '') throw new AppError('NOT_FOUND', `no such directory: ${path}`);
      return [...out.values()].sort((a, b) => a.path.localeCompare(b.path));
    });
  }
  async grep(pattern: string | RegExp, options: GrepOptions = {}): Promise<GrepMatch[]> {
    const re =
      typeof pattern === 'string'
        ? new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), options.ignoreCase ? 'i' : '')
        : pattern;
    const matches: GrepMatch[] = [];
    for (const stat of await this.list(options.path ?? '', { recursive: true })) {
      if (stat.kind !== 'file') continue;
      (await this.readText(stat.path)).split('\n').forEach((text, i) => {
        if (re.test(text)) matches.push({ path: stat.path, line: i + 1, text });
      });
    }
    return matches.slice(0, options.maxMatches ?? matches.length);
  }
  move(from: string, to: string): Promise<void> {
    return settle(() => {
      const entry = this.files.get(this.norm(from));
      if (!entry) throw new AppError('NOT_FOUND', `no such file: ${from}`);
      this.files.delete(this.norm(from));
      this.files.set(this.norm(to), entry);
    });
  }
  delete(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    return settle(() => {
      const key = this.norm(path);
      if (this.files.delete(key)) return;
      if (!options.recursive) throw new AppError('NOT_FOUND', `no such file: ${path}`);
      for (const file of [...this.files.keys()]) if (file.startsWith(`${key}/`)) this.files.delete(file);
    });
  }
  async mkdir(_path: string): Promise<void> {}
}
