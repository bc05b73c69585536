import { AppError } from '@agentry/contracts';
import type { HarnessTool, ToolContext } from '../tool.js';
import { errorOutcome, textOutcome } from '../tool-executor.js';
import { parseToolInput } from '../tool-input.js';
import {
  agentToolSchema,
  EditInputSchema,
  GlobInputSchema,
  GrepInputSchema,
  ReadInputSchema,
  WriteInputSchema,
} from './agent-toolset.schemas.js';
import { resolveToolPath } from './workspace-path.js';

/** Largest file `read` and `edit` load whole, as the SDK's toolset caps them. */
const MAX_FILE_BYTES = 256 * 1024;

async function loadText(context: ToolContext, tool: string, filePath: string): Promise<string> {
  const { fs, path } = resolveToolPath(context, filePath);
  const stat = await fs.stat(path);
  if (!stat) throw new AppError('NOT_FOUND', `${tool}: ${filePath} does not exist`);
  if (stat.kind !== 'file')
    throw new AppError('INVALID_REQUEST', `${tool}: ${filePath} is not a regular file`);
  if (stat.size > MAX_FILE_BYTES) {
    throw new AppError(
      'INVALID_REQUEST',
      `${tool}: ${filePath} is ${stat.size} bytes, over the ${MAX_FILE_BYTES}-byte limit; use bash (head, sed -n) to read part of it`,
    );
  }
  return fs.readText(path);
}

function isLineRange(range: unknown): range is [number, number] {
  const line = (n: unknown) => Number.isInteger(n) && ((n as number) >= 1 || n === -1);
  return Array.isArray(range) && range.length === 2 && range.every(line);
}

const read: HarnessTool = {
  ...agentToolSchema('read'),
  toolset: 'builtin',
  async execute(input, context) {
    const { file_path: filePath, view_range: range } = parseToolInput('read', ReadInputSchema, input);
    if (range !== undefined && !isLineRange(range)) {
      return errorOutcome(
        'read: view_range must be [start_line, end_line] (1-indexed, end -1 for the last line)',
        'invalid_request',
      );
    }
    const text = await loadText(context, 'read', filePath);
    if (!range) return textOutcome(text);
    const [start, end] = range;
    const lines = text.split('\n');
    return textOutcome(lines.slice(start - 1, end === -1 ? undefined : end).join('\n'));
  },
};

const write: HarnessTool = {
  ...agentToolSchema('write'),
  toolset: 'builtin',
  async execute(input, context) {
    const { file_path: filePath, content } = parseToolInput('write', WriteInputSchema, input);
    const { fs, path } = resolveToolPath(context, filePath);
    const stat = await fs.writeText(path, content, { createParents: true });
    return textOutcome(`wrote ${stat.size} bytes to ${filePath}`);
  },
};

const edit: HarnessTool = {
  ...agentToolSchema('edit'),
  toolset: 'builtin',
  async execute(input, context) {
    const args = parseToolInput('edit', EditInputSchema, input);
    const { file_path: filePath, old_string: oldString, new_string: newString } = args;
    if (oldString === '') return errorOutcome('edit: old_string must not be empty', 'invalid_request');
    const current = await loadText(context, 'edit', filePath);
    const count = current.split(oldString).length - 1;
    if (count === 0) return errorOutcome(`edit: old_string not found in ${filePath}`, 'not_found');
    if (count > 1 && args.replace_all !== true)
      return errorOutcome(
        `edit: old_string appears ${count} times in ${filePath} (must be unique)`,
        'ambiguous',
      );
    const { fs, path } = resolveToolPath(context, filePath);
    const stat = await fs.stat(path);
    // Compare-and-set so a concurrent writer (a command in the shell) is not silently overwritten.
    await fs.writeText(
      path,
      current.split(oldString).join(newString),
      stat ? { ifVersion: stat.version } : {},
    );
    return textOutcome(`edited ${filePath} (${args.replace_all === true ? count : 1} replacement(s))`);
  },
};

const glob: HarnessTool = {
  ...agentToolSchema('glob'),
  toolset: 'builtin',
  async execute(input, context) {
    const { pattern, path: under } = parseToolInput('glob', GlobInputSchema, input);
    if (pattern === '') return errorOutcome('glob: pattern must not be empty', 'invalid_request');
    if (pattern.startsWith('/') || pattern.split(/[\\/{},]/).includes('..'))
      return errorOutcome('glob: the pattern must be relative and must not contain ".."', 'path_escape');
    const { fs, path, shown } = resolveToolPath(context, under || '.');
    const entries = await fs.list(path, { recursive: true, glob: pattern, limit: 1000 });
    const files = entries
      .filter((e) => e.kind === 'file')
      .sort((a, b) => b.modifiedAt.getTime() - a.modifiedAt.getTime());
    return textOutcome(files.length === 0 ? 'no matches' : files.map((e) => shown(e.path)).join('\n'));
  },
};

const grep: HarnessTool = {
  ...agentToolSchema('grep'),
  toolset: 'builtin',
  async execute(input, context) {
    const { pattern: source, path: under } = parseToolInput('grep', GrepInputSchema, input);
    if (source === '') return errorOutcome('grep: pattern must not be empty', 'invalid_request');
    let pattern: RegExp;
    try {
      pattern = new RegExp(source);
    } catch (err) {
      return errorOutcome(
        `grep: invalid regular expression: ${err instanceof Error ? err.message : String(err)}`,
        'invalid_request',
      );
    }
    const { fs, path, shown } = resolveToolPath(context, under || '.');
    const matches = await fs.grep(pattern, { ...(path && path !== '.' ? { path } : {}), maxMatches: 500 });
    return textOutcome(
      matches.length === 0
        ? 'no matches'
        : matches.map((m) => `${shown(m.path)}:${m.line}:${m.text}`).join('\n'),
    );
  },
};

/** `read`, `write`, `edit`, `glob`, `grep` on the session's workspace port, wherever that port lives. */
export const AGENT_FILE_TOOLS: readonly HarnessTool[] = [read, write, edit, glob, grep];
