import type { HarnessTool } from '../tool.js';
import { errorOutcome, textOutcome } from '../tool-executor.js';
import { objectSchema, stringArg } from './tool-input.js';

export const writeFileTool: HarnessTool = {
  name: 'write_file',
  description: 'Create or overwrite a workspace file with the given content.',
  inputSchema: objectSchema({ path: { type: 'string' }, content: { type: 'string' } }, ['path', 'content']),
  idempotent: false,
  toolset: 'builtin',
  async execute(input, { fs }) {
    const path = stringArg(input, 'path');
    const content = typeof input.content === 'string' ? input.content : '';
    const stat = await fs.writeText(path, content);
    return textOutcome(`Wrote ${stat.size} bytes to ${path}`);
  },
};

export const editFileTool: HarnessTool = {
  name: 'edit_file',
  description:
    'Replace old_string with new_string in a file. old_string must be unique unless replace_all is true.',
  inputSchema: objectSchema(
    {
      path: { type: 'string' },
      old_string: { type: 'string' },
      new_string: { type: 'string' },
      replace_all: { type: 'boolean' },
    },
    ['path', 'old_string', 'new_string'],
  ),
  idempotent: false,
  toolset: 'builtin',
  async execute(input, { fs }) {
    const path = stringArg(input, 'path');
    const oldString = stringArg(input, 'old_string');
    const newString = typeof input.new_string === 'string' ? input.new_string : '';
    const current = await fs.readText(path);
    const count = current.split(oldString).length - 1;
    if (count === 0) return errorOutcome(`old_string was not found in ${path}`, 'not_found');
    if (count > 1 && input.replace_all !== true) {
      return errorOutcome(
        `old_string occurs ${count} times in ${path}; make it unique or set replace_all`,
        'ambiguous',
      );
    }
    const stat = await fs.stat(path);
    // Compare-and-set so a concurrent writer is not silently overwritten.
    await fs.writeText(
      path,
      current.split(oldString).join(newString),
      stat ? { ifVersion: stat.version } : {},
    );
    return textOutcome(`Replaced ${count} occurrence${count === 1 ? '' : 's'} in ${path}`);
  },
};
