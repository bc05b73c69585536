import type { HarnessTool } from '../tool.js';
import { textOutcome } from '../tool-executor.js';
import { objectSchema, optionalNumber, optionalString, stringArg } from './tool-input.js';

export const readFileTool: HarnessTool = {
  name: 'read_file',
  description:
    'Read a text file from the workspace. Lines are numbered from 1; use offset/limit to page through large files.',
  inputSchema: objectSchema(
    {
      path: { type: 'string', description: 'Workspace-relative path' },
      offset: { type: 'integer', minimum: 0, description: '0-based line to start at' },
      limit: { type: 'integer', minimum: 0, description: 'Lines to return (0 = all)' },
    },
    ['path'],
  ),
  idempotent: true,
  toolset: 'builtin',
  async execute(input, { fs }) {
    const lines = (await fs.readText(stringArg(input, 'path'))).split('\n');
    const offset = Math.max(0, optionalNumber(input, 'offset') ?? 0);
    const limit = optionalNumber(input, 'limit') ?? 0;
    const slice = limit > 0 ? lines.slice(offset, offset + limit) : lines.slice(offset);
    return textOutcome(slice.map((line, i) => `${String(offset + i + 1).padStart(6)}\t${line}`).join('\n'));
  },
};

export const listFilesTool: HarnessTool = {
  name: 'list_files',
  description: 'List the entries of a workspace directory (directories end with "/").',
  inputSchema: objectSchema({ path: { type: 'string', description: 'Directory, "." for the root' } }, [
    'path',
  ]),
  idempotent: true,
  toolset: 'builtin',
  async execute(input, { fs }) {
    const entries = await fs.list(optionalString(input, 'path') ?? '.');
    if (entries.length === 0) return textOutcome('(empty directory)');
    return textOutcome(
      entries.map((e) => (e.kind === 'directory' ? `${e.path}/` : `${e.path} (${e.size} bytes)`)).join('\n'),
    );
  },
};

export const grepFilesTool: HarnessTool = {
  name: 'grep_files',
  description: 'Search workspace files for a literal string; returns path:line: text for each match.',
  inputSchema: objectSchema(
    {
      pattern: { type: 'string', description: 'Literal text to find' },
      path: { type: 'string', description: 'Directory to search under' },
      glob: { type: 'string', description: 'Only files matching this glob, e.g. "**/*.md"' },
    },
    ['pattern'],
  ),
  idempotent: true,
  toolset: 'builtin',
  async execute(input, { fs }) {
    const literal = stringArg(input, 'pattern').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const path = optionalString(input, 'path');
    const glob = optionalString(input, 'glob');
    const matches = await fs.grep(new RegExp(literal), {
      ...(path ? { path } : {}),
      ...(glob ? { glob } : {}),
      maxMatches: 500,
    });
    if (matches.length === 0) return textOutcome('No matches.');
    return textOutcome(matches.map((m) => `${m.path}:${m.line}: ${m.text}`).join('\n'));
  },
};

export const globFilesTool: HarnessTool = {
  name: 'glob_files',
  description: 'Find workspace files whose path matches a glob such as "**/*.ts".',
  inputSchema: objectSchema(
    {
      pattern: { type: 'string', description: 'Glob pattern' },
      path: { type: 'string', description: 'Directory to search under' },
    },
    ['pattern'],
  ),
  idempotent: true,
  toolset: 'builtin',
  async execute(input, { fs }) {
    const entries = await fs.list(optionalString(input, 'path') ?? '.', {
      recursive: true,
      glob: stringArg(input, 'pattern'),
      limit: 1000,
    });
    const files = entries.filter((e) => e.kind === 'file');
    return textOutcome(files.length === 0 ? 'No files matched.' : files.map((e) => e.path).join('\n'));
  },
};
