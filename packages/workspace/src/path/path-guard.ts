import { WorkspaceErrors } from '../core/workspace-errors.js';

/** Longest accepted path, in UTF-8 bytes, and longest single segment (the usual NAME_MAX). */
const MAX_PATH_BYTES = 4096;
const MAX_SEGMENT_BYTES = 255;

// C0 controls and DEL: never legitimate in a workspace name, and NUL truncates paths in C APIs.
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
const DRIVE_LETTER = /^[a-zA-Z]:/;
// Lone surrogates cannot round-trip through UTF-8 storage: two different names would land on one file.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The one path guard every backend runs. Returns the canonical relative form ("a/b.md", "" for the root)
 * or throws PATH_ESCAPE. Any ".." segment is refused even when it would stay inside the root: a path that
 * needs it is never legitimate, and refusing it keeps the rule easy to audit.
 */
export function normalizeWorkspacePath(input: string): string {
  if (typeof input !== 'string') throw WorkspaceErrors.escape(String(input), 'not a string');
  if (LONE_SURROGATE.test(input)) throw WorkspaceErrors.escape(input, 'invalid Unicode');
  const path = input.normalize('NFC');
  if (path.includes('\u0000')) throw WorkspaceErrors.escape(path, 'NUL byte');
  if (CONTROL_CHARS.test(path)) throw WorkspaceErrors.escape(path, 'control character');
  if (path.includes('\\')) throw WorkspaceErrors.escape(path, 'backslash');
  if (path.startsWith('/')) throw WorkspaceErrors.escape(path, 'absolute path');
  if (DRIVE_LETTER.test(path)) throw WorkspaceErrors.escape(path, 'drive letter');
  if (Buffer.byteLength(path, 'utf8') > MAX_PATH_BYTES) throw WorkspaceErrors.escape(path, 'path too long');
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') throw WorkspaceErrors.escape(path, 'parent reference');
    if (Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES)
      throw WorkspaceErrors.escape(path, 'segment too long');
    segments.push(segment);
  }
  return segments.join('/');
}

/** Joins already-normalized relative paths. */
export function joinWorkspacePath(...parts: string[]): string {
  return parts.filter((p) => p !== '').join('/');
}

/** The parent of a normalized path ("" for top-level entries). */
export function parentPath(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** Every proper ancestor of a normalized path, outermost first, excluding the root. */
export function ancestorPaths(path: string): string[] {
  const out: string[] = [];
  let i = path.indexOf('/');
  while (i >= 0) {
    out.push(path.slice(0, i));
    i = path.indexOf('/', i + 1);
  }
  return out;
}

/** True when `path` equals `dir` or lies beneath it (both normalized; "" is the root). */
export function isWithinPath(path: string, dir: string): boolean {
  return dir === '' || path === dir || path.startsWith(`${dir}/`);
}

/** `path` relative to `dir`; the caller ensures isWithinPath(path, dir). */
export function relativeTo(path: string, dir: string): string {
  if (dir === '') return path;
  return path === dir ? '' : path.slice(dir.length + 1);
}
