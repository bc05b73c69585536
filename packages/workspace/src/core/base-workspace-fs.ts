import type { FileStat, GrepMatch, GrepOptions, ListOptions, WorkspaceFs, WriteOptions } from '../port.js';
import { isWithinPath, normalizeWorkspacePath } from '../path/path-guard.js';
import { filterListing, grepGlobMatches, listIsRecursive } from './list-filter.js';
import { WorkspaceErrors } from './workspace-errors.js';
import { compileGrepPattern, grepLines } from './grep-lines.js';

export interface BaseWorkspaceOptions {
  readOnly?: boolean;
  /** Largest file a write or append may produce (default 64 MiB). */
  maxFileBytes?: number;
}

const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;
const STREAM_CHUNK_BYTES = 64 * 1024;
const DEFAULT_GREP_MAX_MATCHES = 1000;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Shared semantics of every backend: the path guard, read-only refusal, size limits, text encoding,
 * globbing and grep. A backend implements only the storage primitives below, on paths that have already
 * crossed the guard ("" is the root).
 */
export abstract class BaseWorkspaceFs implements WorkspaceFs {
  readonly readOnly: boolean;
  readonly maxFileBytes: number;

  protected constructor(options: BaseWorkspaceOptions = {}) {
    this.readOnly = options.readOnly ?? false;
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  }

  protected abstract statAt(path: string): Promise<FileStat | null>;
  /** Throws NOT_FOUND, or INVALID_REQUEST for a directory. */
  protected abstract readAt(path: string): Promise<Uint8Array>;
  protected abstract writeAt(
    path: string,
    content: Uint8Array,
    ifVersion: string | null | undefined,
    createParents: boolean,
  ): Promise<FileStat>;
  /** Must refuse with PAYLOAD_TOO_LARGE when the result would exceed maxFileBytes. */
  protected abstract appendAt(path: string, content: Uint8Array): Promise<FileStat>;
  /** Entries under a directory, sorted by path; NOT_FOUND or INVALID_REQUEST when `path` is not a directory. */
  protected abstract listAt(path: string, recursive: boolean): Promise<FileStat[]>;
  protected abstract moveAt(from: string, to: string, overwrite: boolean): Promise<void>;
  protected abstract deleteAt(path: string, recursive: boolean): Promise<void>;
  protected abstract mkdirAt(path: string): Promise<void>;

  /**
   * Refuses a write over a directory, a create-only write (`ifVersion: null`) over an existing file and a
   * conditional write whose version no longer matches; `current` is what the path holds now.
   */
  protected checkWrite(path: string, current: FileStat | null, ifVersion: string | null | undefined): void {
    if (current?.kind === 'directory') throw WorkspaceErrors.isDirectory(path);
    if (ifVersion === null && current) throw WorkspaceErrors.exists(path);
    if (typeof ifVersion === 'string' && current?.version !== ifVersion)
      throw WorkspaceErrors.conflict(path, ifVersion, current?.version ?? null);
  }

  /** Backends on a real filesystem re-check the resolved location here (symlinks). */
  protected async confine(_path: string): Promise<void> {}

  protected async resolve(path: string): Promise<string> {
    const normalized = normalizeWorkspacePath(path);
    await this.confine(normalized);
    return normalized;
  }

  protected async resolveWritable(path: string): Promise<string> {
    const normalized = await this.resolve(path);
    if (this.readOnly) throw WorkspaceErrors.readOnly(normalized);
    return normalized;
  }

  async readText(path: string): Promise<string> {
    return decoder.decode(await this.readBytes(path));
  }

  async readBytes(path: string): Promise<Uint8Array> {
    return this.readAt(await this.resolve(path));
  }

  async *readStream(path: string): AsyncIterable<Uint8Array> {
    const bytes = await this.readBytes(path);
    for (let offset = 0; offset < bytes.length; offset += STREAM_CHUNK_BYTES) {
      yield bytes.subarray(offset, offset + STREAM_CHUNK_BYTES);
    }
  }

  writeText(path: string, content: string, options?: WriteOptions): Promise<FileStat> {
    return this.writeBytes(path, encoder.encode(content), options);
  }

  async writeBytes(path: string, content: Uint8Array, options: WriteOptions = {}): Promise<FileStat> {
    const target = await this.resolveWritable(path);
    if (target === '') throw WorkspaceErrors.isDirectory(target);
    if (content.byteLength > this.maxFileBytes)
      throw WorkspaceErrors.tooLarge(target, content.byteLength, this.maxFileBytes);
    return this.writeAt(target, content, options.ifVersion, options.createParents ?? true);
  }

  async appendText(path: string, content: string): Promise<FileStat> {
    const target = await this.resolveWritable(path);
    if (target === '') throw WorkspaceErrors.isDirectory(target);
    const bytes = encoder.encode(content);
    if (bytes.byteLength > this.maxFileBytes)
      throw WorkspaceErrors.tooLarge(target, bytes.byteLength, this.maxFileBytes);
    return this.appendAt(target, bytes);
  }

  async stat(path: string): Promise<FileStat | null> {
    return this.statAt(await this.resolve(path));
  }

  async exists(path: string): Promise<boolean> {
    return (await this.stat(path)) !== null;
  }

  async list(path: string, options: ListOptions = {}): Promise<FileStat[]> {
    const dir = await this.resolve(path);
    return filterListing(await this.listAt(dir, listIsRecursive(options)), dir, options);
  }

  async grep(pattern: string | RegExp, options: GrepOptions = {}): Promise<GrepMatch[]> {
    const regex = compileGrepPattern(pattern, options.ignoreCase ?? false);
    const dir = await this.resolve(options.path ?? '');
    const max = options.maxMatches ?? DEFAULT_GREP_MAX_MATCHES;
    const start = await this.statAt(dir);
    if (!start) throw WorkspaceErrors.notFound(dir);
    const files =
      start.kind === 'file' ? [start] : (await this.listAt(dir, true)).filter((e) => e.kind === 'file');
    const matches: GrepMatch[] = [];
    for (const file of files) {
      if (!grepGlobMatches(file.path, dir, options.glob)) continue;
      let bytes: Uint8Array;
      try {
        bytes = await this.readAt(file.path);
      } catch {
        continue; // removed between listing and reading
      }
      grepLines(file.path, bytes, regex, matches, max);
      if (matches.length >= max) break;
    }
    return matches;
  }

  async move(from: string, to: string, options: { overwrite?: boolean } = {}): Promise<void> {
    const source = await this.resolveWritable(from);
    const target = await this.resolveWritable(to);
    if (source === '' || target === '') throw WorkspaceErrors.invalid('Cannot move the workspace root');
    if (source === target) {
      if (!(await this.statAt(source))) throw WorkspaceErrors.notFound(source);
      return;
    }
    if (isWithinPath(target, source)) throw WorkspaceErrors.invalid(`Cannot move ${source} into itself`);
    await this.moveAt(source, target, options.overwrite ?? false);
  }

  async delete(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const target = await this.resolveWritable(path);
    if (target === '') throw WorkspaceErrors.invalid('Cannot delete the workspace root');
    await this.deleteAt(target, options.recursive ?? false);
  }

  async mkdir(path: string): Promise<void> {
    const target = await this.resolveWritable(path);
    if (target === '') return;
    await this.mkdirAt(target);
  }
}
