import { runWorkspaceConformance } from '../testing/workspace-conformance.js';
import { MemoryWorkspaceFs } from './memory-workspace-fs.js';

runWorkspaceConformance('memory', (options) => Promise.resolve({ fs: new MemoryWorkspaceFs(options) }));
