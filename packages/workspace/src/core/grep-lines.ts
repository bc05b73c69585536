import type { GrepMatch } from '../port.js';
import { WorkspaceErrors } from './workspace-errors.js';

const MAX_LINE_CHARS = 1000;
const BINARY_SNIFF_BYTES = 8000;
const decoder = new TextDecoder();

/** A string pattern is a regular expression source, as with grep -E. */
export function compileGrepPattern(pattern: string | RegExp, ignoreCase: boolean): RegExp {
  if (pattern instanceof RegExp) {
    const flags = pattern.flags.replace(/[gy]/g, '');
    return new RegExp(pattern.source, ignoreCase && !flags.includes('i') ? `${flags}i` : flags);
  }
  try {
    return new RegExp(pattern, ignoreCase ? 'i' : '');
  } catch (error) {
    throw WorkspaceErrors.invalid(`Invalid search pattern: ${pattern}`, { cause: String(error) });
  }
}

/** Appends matches of one file to `out` (binary files are skipped, long lines clipped). */
export function grepLines(
  path: string,
  bytes: Uint8Array,
  regex: RegExp,
  out: GrepMatch[],
  max: number,
): void {
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return;
  const lines = decoder.decode(bytes).split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length && out.length < max; i++) {
    const line = lines[i] ?? '';
    if (regex.test(line))
      out.push({
        path,
        line: i + 1,
        text: line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) : line,
      });
  }
}
