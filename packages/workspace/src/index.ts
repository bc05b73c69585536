export type {
  ExecOptions,
  ExecResult,
  FileStat,
  GrepMatch,
  GrepOptions,
  ListOptions,
  SandboxFs,
  WorkspaceFs,
  WriteOptions,
} from './port.js';
export { epochStat } from './port.js';
export { joinWorkspacePath, normalizeWorkspacePath } from './path/path-guard.js';
export { scopeRootKey } from './scopes/isolation-scope.js';
export { agentWorkspaceRoot } from './scopes/agent-workspace-root.js';
export { MemoryWorkspaceFs } from './memory/memory-workspace-fs.js';
export { LocalWorkspaceFs } from './local/local-workspace-fs.js';
export { lstatOrNull, readSmallFile } from './local/small-file.js';
export { PostgresWorkspaceFs } from './postgres/postgres-workspace-fs.js';
export type { ReadAheadPlan } from './postgres/read-ahead.js';
export { ReadOnlyWorkspaceFs } from './mounts/read-only-workspace-fs.js';
export { KeyedMutex } from './core/keyed-mutex.js';
export { killGroup } from './sandbox/process-runner.js';
export { BubblewrapSandbox } from './sandbox/bubblewrap-sandbox.js';
export type { SandboxLimits } from './sandbox/bwrap-args.js';
export { E2bSandbox } from './sandbox/e2b-sandbox.js';
export type { E2bConnection, E2bCreateOptions, E2bSandboxOptions } from './sandbox/e2b-sandbox.js';
export { parseFrontMatter } from './definition/front-matter.js';
export type { FrontMatterDocument } from './definition/front-matter.js';
export {
  mountPrefix,
  mountsChangeMark,
  openMountSource,
  openMountTree,
} from './session-mounts/mount-sources.js';
export type { MountSourceDeps } from './session-mounts/mount-sources.js';
export type { MountContentReader } from './session-mounts/mount-content.js';
export { workspaceTableDdl } from './postgres/workspace-files.ddl.js';
export { OverlayWorkspaceFs } from './mounts/overlay-workspace-fs.js';
