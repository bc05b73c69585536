import type { HarnessTool } from '../tool.js';
import { globFilesTool, grepFilesTool, listFilesTool, readFileTool } from './file-read.tools.js';
import { editFileTool, writeFileTool } from './file-write.tools.js';

/** The built-in file tools: what runs wherever the session's files live (in process, or on a worker). */
export const FILESYSTEM_TOOLS: readonly HarnessTool[] = [
  readFileTool,
  writeFileTool,
  editFileTool,
  listFilesTool,
  grepFilesTool,
  globFilesTool,
];
