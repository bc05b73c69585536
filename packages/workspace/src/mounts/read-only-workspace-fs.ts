import type { FileStat, GrepMatch, GrepOptions, ListOptions, WorkspaceFs, WriteOptions } from '../port.js';
import { settle } from '../core/settle.js';
import { WorkspaceErrors } from '../core/workspace-errors.js';
import { normalizeWorkspacePath } from '../path/path-guard.js';

/** A read-only view of another workspace (definition files, read-only memory stores). */
export class ReadOnlyWorkspaceFs implements WorkspaceFs {
  readonly readOnly = true;

  /** `why`, when given, is said with every refusal (e.g. which store is mounted read-only). */
  constructor(
    private readonly inner: WorkspaceFs,
    private readonly why?: string,
  ) {}

  private refuse(path: string): Promise<never> {
    // Guard first, so an attack path still reports PATH_ESCAPE rather than READ_ONLY.
    return settle(() => {
      throw WorkspaceErrors.readOnly(normalizeWorkspacePath(path), this.why);
    });
  }

  readText(path: string): Promise<string> {
    return this.inner.readText(path);
  }
  readBytes(path: string): Promise<Uint8Array> {
    return this.inner.readBytes(path);
  }
  readStream(path: string): AsyncIterable<Uint8Array> {
    return this.inner.readStream(path);
  }
  stat(path: string): Promise<FileStat | null> {
    return this.inner.stat(path);
  }
  exists(path: string): Promise<boolean> {
    return this.inner.exists(path);
  }
  list(path: string, options?: ListOptions): Promise<FileStat[]> {
    return this.inner.list(path, options);
  }
  grep(pattern: string | RegExp, options?: GrepOptions): Promise<GrepMatch[]> {
    return this.inner.grep(pattern, options);
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
  async move(from: string, to: string, _options?: { overwrite?: boolean }): Promise<void> {
    normalizeWorkspacePath(to);
    return this.refuse(from);
  }
  delete(path: string, _options?: { recursive?: boolean }): Promise<void> {
    return this.refuse(path);
  }
  mkdir(path: string): Promise<void> {
    return this.refuse(path);
  }
}
