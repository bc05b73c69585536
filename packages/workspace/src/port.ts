/**
 * The logical workspace every tool, memory and skill sees. Paths are always relative, POSIX-style
 * ("notes/a.md"); every backend runs them through the one path guard before touching storage.
 * Errors are AppError from @agentry/contracts with codes NOT_FOUND, ALREADY_EXISTS, CONFLICT,
 * PAYLOAD_TOO_LARGE, PATH_ESCAPE, READ_ONLY, INVALID_REQUEST.
 */
export interface FileStat {
  path: string;
  kind: 'file' | 'directory';
  size: number;
  /** Monotonic per-path version where the backend offers one (CAS writes); otherwise a content hash. */
  version: string;
  modifiedAt: Date;
}

/** A stat as it travels (JSON, the `/api` workspace entries): its time in epoch milliseconds, no version. */
export function epochStat(stat: FileStat): Omit<FileStat, 'version' | 'modifiedAt'> & { modifiedAt: number } {
  return { path: stat.path, kind: stat.kind, size: stat.size, modifiedAt: stat.modifiedAt.getTime() };
}

export interface WriteOptions {
  /** Compare-and-set: write only if the current version equals this (null = must not exist). */
  ifVersion?: string | null;
  /** Create parent directories (default true). */
  createParents?: boolean;
}

export interface ListOptions {
  recursive?: boolean;
  /** minimatch glob relative to the listed directory, e.g. "**\/*.md". */
  glob?: string;
  limit?: number;
}

export interface GrepOptions {
  /** Directory to search under (default root). */
  path?: string;
  glob?: string;
  ignoreCase?: boolean;
  maxMatches?: number;
}

export interface GrepMatch {
  path: string;
  line: number;
  text: string;
}

export interface WorkspaceFs {
  readonly readOnly: boolean;
  readText(path: string): Promise<string>;
  readBytes(path: string): Promise<Uint8Array>;
  /** Streams a file in chunks; for large files. */
  readStream(path: string): AsyncIterable<Uint8Array>;
  writeText(path: string, content: string, options?: WriteOptions): Promise<FileStat>;
  writeBytes(path: string, content: Uint8Array, options?: WriteOptions): Promise<FileStat>;
  appendText(path: string, content: string): Promise<FileStat>;
  stat(path: string): Promise<FileStat | null>;
  exists(path: string): Promise<boolean>;
  list(path: string, options?: ListOptions): Promise<FileStat[]>;
  grep(pattern: string | RegExp, options?: GrepOptions): Promise<GrepMatch[]>;
  move(from: string, to: string, options?: { overwrite?: boolean }): Promise<void>;
  delete(path: string, options?: { recursive?: boolean }): Promise<void>;
  mkdir(path: string): Promise<void>;
}

export interface ExecOptions {
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Per-stream output cap in bytes; excess is dropped and a truncation marker appended. */
  maxOutputBytes?: number;
  stdin?: string;
}

export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  truncated: boolean;
  durationMs: number;
}

/** A workspace that can also run commands (sandbox backends). */
export interface SandboxFs extends WorkspaceFs {
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  dispose(): Promise<void>;
}
