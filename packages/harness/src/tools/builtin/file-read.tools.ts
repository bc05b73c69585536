import type { HarnessTool } from '../tool.js';
import { textOutcome } from '../tool-executor.js';
import { z } from 'zod';
import { parseToolInput, zodInput } from '../tool-input.js';

const ReadFileInput = z.strictObject({
  path: z.string().min(1).describe('Workspace-relative path'),
  offset: z.int().min(0).describe('0-based line to start at').optional(),
  limit: z.int().min(0).describe('Lines to return (0 = all)').optional(),
});
const ListFilesInput = z.strictObject({ path: z.string().describe('Directory, "." for the root') });
const GrepFilesInput = z.strictObject({
  pattern: z.string().min(1).describe('Literal text to find'),
  path: z.string().describe('Directory to search under').optional(),
  glob: z.string().describe('Only files matching this glob, e.g. "**/*.md"').optional(),
});
const GlobFilesInput = z.strictObject({
  pattern: z.string().min(1).describe('Glob pattern'),
  path: z.string().describe('Directory to search under').optional(),
});

export const readFileTool: HarnessTool = {
  name: 'read_file',
  description:
    'Read a text file from the workspace. Lines are numbered from 1; use offset/limit to page through large files.',
  ...zodInput(ReadFileInput),
  idempotent: true,
  toolset: 'builtin',
  async execute(input, { fs }) {
    const args = parseToolInput('read_file', ReadFileInput, input);
    const lines = (await fs.readText(args.path)).split('\n');
    const offset = args.offset ?? 0;
    const limit = args.limit ?? 0;
    const slice = limit > 0 ? lines.slice(offset, offset + limit) : lines.slice(offset);
    return textOutcome(slice.map((line, i) => `${String(offset + i + 1).padStart(6)}\t${line}`).join('\n'));
  },
};

export const listFilesTool: HarnessTool = {
  name: 'list_files',
  description: 'List the entries of a workspace directory (directories end with "/").',
  ...zodInput(ListFilesInput),
  idempotent: true,
  toolset: 'builtin',
  async execute(input, { fs }) {
    const entries = await fs.list(parseToolInput('list_files', ListFilesInput, input).path || '.');
    if (entries.length === 0) return textOutcome('(empty directory)');
    return textOutcome(
      entries.map((e) => (e.kind === 'directory' ? `${e.path}/` : `${e.path} (${e.size} bytes)`)).join('\n'),
    );
  },
};

export const grepFilesTool: HarnessTool = {
  name: 'grep_files',
  description: 'Search workspace files for a literal string; returns path:line: text for each match.',
  ...zodInput(GrepFilesInput),
  idempotent: true,
  toolset: 'builtin',
  async execute(input, { fs }) {
    const { pattern, path, glob } = parseToolInput('grep_files', GrepFilesInput, input);
    const literal = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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
  ...zodInput(GlobFilesInput),
  idempotent: true,
  toolset: 'builtin',
  async execute(input, { fs }) {
    const { pattern, path } = parseToolInput('glob_files', GlobFilesInput, input);
    const entries = await fs.list(path || '.', {
      recursive: true,
      glob: pattern,
      limit: 1000,
    });
    const files = entries.filter((e) => e.kind === 'file');
    return textOutcome(files.length === 0 ? 'No files matched.' : files.map((e) => e.path).join('\n'));
  },
};
