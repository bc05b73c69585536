import { runWorkspaceConformance } from '../testing/workspace-conformance.js';
import { MemoryWorkspaceFs } from './memory-workspace-fs.js';

runWorkspaceConformance('memory', async (options) => ({ fs: new MemoryWorkspaceFs(options) }));
