import { AppError } from '@agentry/contracts';
import type { FileStat, GrepMatch, GrepOptions, ListOptions, WorkspaceFs, WriteOptions } from '../port.js';
import { WorkspaceErrors } from '../core/workspace-errors.js';
import { byPath, filterListing, listIsRecursive } from '../core/list-filter.js';
import { isWithinPath, normalizeWorkspacePath, parentPath } from '../path/path-guard.js';

const LOWER = 'lower:';
const UPPER = 'upper:';
const tag =
  (prefix: string) =>
  (s: FileStat): FileStat => ({ ...s, version: prefix + s.version });
const notFound = (error: unknown) => AppError.is(error, 'NOT_FOUND');

/** A failure handler: the failures `matches` accepts are answered by `fallback`, any other one stands. */
function recover<T>(matches: (error: unknown) => boolean, fallback: () => T): (error: unknown) => T {
  return (error) => {
    if (matches(error)) return fallback();
    throw error;
  };
}

/**
 * A read-only definition layer under a writable runtime layer. Reads see the upper file when there is
 * one, else the lower; writes and appends copy up. Versions carry their layer ("lower:3", "upper:1") so a
 * CAS write made against a lower file still detects a concurrent copy-up. There are no whiteouts: deleting
 * or moving something that exists in the lower layer is refused with READ_ONLY.
 */
export class OverlayWorkspaceFs implements WorkspaceFs {
  constructor(
    private readonly lower: WorkspaceFs,
    private readonly upper: WorkspaceFs,
  ) {}

  get readOnly(): boolean {
    return this.upper.readOnly;
  }

  private async layerOf(path: string): Promise<{ fs: WorkspaceFs; stat: FileStat; upper: boolean } | null> {
    const up = await this.upper.stat(path);
    if (up) return { fs: this.upper, stat: up, upper: true };
    const low = await this.lower.stat(path);
    return low ? { fs: this.lower, stat: low, upper: false } : null;
  }

  async readText(path: string): Promise<string> {
    return this.upper.readText(path).catch(recover(notFound, () => this.lower.readText(path)));
  }
  async readBytes(path: string): Promise<Uint8Array> {
    return this.upper.readBytes(path).catch(recover(notFound, () => this.lower.readBytes(path)));
  }
  async *readStream(path: string): AsyncIterable<Uint8Array> {
    const layer = await this.layerOf(normalizeWorkspacePath(path));
    yield* (layer?.fs ?? this.upper).readStream(path);
  }

  async stat(path: string): Promise<FileStat | null> {
    const layer = await this.layerOf(normalizeWorkspacePath(path));
    return layer ? tag(layer.upper ? UPPER : LOWER)(layer.stat) : null;
  }
  async exists(path: string): Promise<boolean> {
    return (await this.stat(path)) !== null;
  }

  writeText(path: string, content: string, options?: WriteOptions): Promise<FileStat> {
    return this.writeBytes(path, new TextEncoder().encode(content), options);
  }

  async writeBytes(path: string, content: Uint8Array, options: WriteOptions = {}): Promise<FileStat> {
    const target = normalizeWorkspacePath(path);
    if (this.upper.readOnly) throw WorkspaceErrors.readOnly(target);
    const createParents = options.createParents ?? true;
    if (!createParents && !(await this.exists(parentPath(target))))
      throw WorkspaceErrors.notFound(parentPath(target));
    const { ifVersion } = options;
    if (ifVersion === undefined) {
      if ((await this.lower.stat(target))?.kind === 'directory') throw WorkspaceErrors.isDirectory(target);
      return tag(UPPER)(await this.upper.writeBytes(target, content));
    }
    const current = await this.layerOf(target);
    if (current?.stat.kind === 'directory') throw WorkspaceErrors.isDirectory(target);
    const currentVersion = current ? (current.upper ? UPPER : LOWER) + current.stat.version : null;
    if (ifVersion === null && current) throw WorkspaceErrors.exists(target);
    if (ifVersion !== null && ifVersion !== currentVersion)
      throw WorkspaceErrors.conflict(target, ifVersion, currentVersion);
    // The upper write is itself a CAS, so a concurrent copy-up or write loses cleanly.
    const upperVersion = current?.upper ? current.stat.version : null;
    const written = await this.upper
      .writeBytes(target, content, { ifVersion: upperVersion })
      .catch((e: unknown) => {
        throw AppError.is(e, 'ALREADY_EXISTS') && ifVersion !== null
          ? WorkspaceErrors.conflict(target, ifVersion, null)
          : e;
      });
    return tag(UPPER)(written);
  }

  async appendText(path: string, content: string): Promise<FileStat> {
    const target = normalizeWorkspacePath(path);
    if (this.upper.readOnly) throw WorkspaceErrors.readOnly(target);
    if (!(await this.upper.exists(target))) {
      const low = await this.lower.stat(target);
      if (low?.kind === 'directory') throw WorkspaceErrors.isDirectory(target);
      if (low) {
        const merged = (await this.lower.readText(target)) + content;
        const copied = await this.upper.writeText(target, merged, { ifVersion: null }).catch(
          recover(
            (e) => AppError.is(e, 'ALREADY_EXISTS'),
            () => null,
          ),
        );
        if (copied) return tag(UPPER)(copied);
      }
    }
    return tag(UPPER)(await this.upper.appendText(target, content));
  }

  private async listLayer(fs: WorkspaceFs, dir: string, recursive: boolean): Promise<FileStat[] | null> {
    return fs.list(dir, { recursive }).catch(recover(notFound, () => null));
  }

  async list(path: string, options: ListOptions = {}): Promise<FileStat[]> {
    const dir = normalizeWorkspacePath(path);
    const recursive = listIsRecursive(options);
    const [low, up] = await Promise.all([
      this.listLayer(this.lower, dir, recursive),
      this.listLayer(this.upper, dir, recursive),
    ]);
    if (!low && !up) throw WorkspaceErrors.notFound(dir);
    const merged = new Map<string, FileStat>();
    for (const s of low ?? []) merged.set(s.path, tag(LOWER)(s));
    for (const s of up ?? []) merged.set(s.path, tag(UPPER)(s));
    return filterListing([...merged.values()].sort(byPath), dir, options);
  }

  async grep(pattern: string | RegExp, options: GrepOptions = {}): Promise<GrepMatch[]> {
    const dir = normalizeWorkspacePath(options.path ?? '');
    const max = options.maxMatches ?? 1000;
    const search = (fs: WorkspaceFs) =>
      fs.grep(pattern, { ...options, maxMatches: undefined }).catch(recover(notFound, (): GrepMatch[] => []));
    const [low, up] = await Promise.all([search(this.lower), search(this.upper)]);
    if (low.length === 0 && up.length === 0 && !(await this.exists(dir))) throw WorkspaceErrors.notFound(dir);
    const upperDir = await this.upper.stat(dir);
    const shadowed = new Set(
      upperDir?.kind === 'directory'
        ? (await this.upper.list(dir, { recursive: true })).map((s) => s.path)
        : [],
    );
    if (upperDir?.kind === 'file') shadowed.add(dir);
    const visible = [...low.filter((m) => !shadowed.has(m.path)), ...up];
    return visible.sort((a, b) => byPath(a, b) || a.line - b.line).slice(0, max);
  }

  private async refuseIfInLower(path: string): Promise<void> {
    if (path !== '' && (await this.lower.exists(path))) throw WorkspaceErrors.readOnly(path);
  }

  async move(from: string, to: string, options: { overwrite?: boolean } = {}): Promise<void> {
    const source = normalizeWorkspacePath(from);
    const target = normalizeWorkspacePath(to);
    if (this.upper.readOnly) throw WorkspaceErrors.readOnly(source);
    await this.refuseIfInLower(source);
    const low = await this.lower.stat(target);
    if (low && !isWithinPath(source, target)) {
      if (!options.overwrite || low.kind === 'directory') throw WorkspaceErrors.exists(target);
    }
    return this.upper.move(source, target, options);
  }

  async delete(path: string, options?: { recursive?: boolean }): Promise<void> {
    const target = normalizeWorkspacePath(path);
    if (this.upper.readOnly) throw WorkspaceErrors.readOnly(target);
    await this.refuseIfInLower(target);
    return this.upper.delete(target, options);
  }

  async mkdir(path: string): Promise<void> {
    const target = normalizeWorkspacePath(path);
    if (this.upper.readOnly) throw WorkspaceErrors.readOnly(target);
    const low = await this.lower.stat(target);
    if (low?.kind === 'file') throw WorkspaceErrors.exists(target);
    if (!low) await this.upper.mkdir(target);
  }
}
