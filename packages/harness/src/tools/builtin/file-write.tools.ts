import type { HarnessTool } from '../tool.js';
import { errorOutcome, textOutcome } from '../tool-executor.js';
import { z } from 'zod';
import { parseToolInput, zodInput } from '../tool-input.js';

const WriteFileInput = z.strictObject({ path: z.string().min(1), content: z.string() });
const EditFileInput = z.strictObject({
  path: z.string().min(1),
  old_string: z.string().min(1),
  new_string: z.string(),
  replace_all: z.boolean().optional(),
});

export const writeFileTool: HarnessTool = {
  name: 'write_file',
  description: 'Create or overwrite a workspace file with the given content.',
  ...zodInput(WriteFileInput),
  idempotent: false,
  toolset: 'builtin',
  async execute(input, { fs }) {
    const { path, content } = parseToolInput('write_file', WriteFileInput, input);
    const stat = await fs.writeText(path, content);
    return textOutcome(`Wrote ${stat.size} bytes to ${path}`);
  },
};

export const editFileTool: HarnessTool = {
  name: 'edit_file',
  description:
    'Replace old_string with new_string in a file. old_string must be unique unless replace_all is true.',
  ...zodInput(EditFileInput),
  idempotent: false,
  toolset: 'builtin',
  async execute(input, { fs }) {
    const args = parseToolInput('edit_file', EditFileInput, input);
    const { path, old_string: oldString, new_string: newString } = args;
    const current = await fs.readText(path);
    const count = current.split(oldString).length - 1;
    if (count === 0) return errorOutcome(`old_string was not found in ${path}`, 'not_found');
    if (count > 1 && args.replace_all !== true) {
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
