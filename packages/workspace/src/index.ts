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
export { BaseWorkspaceFs, DEFAULT_MAX_FILE_BYTES } from './core/base-workspace-fs.js';
export type { BaseWorkspaceOptions } from './core/base-workspace-fs.js';
export { WorkspaceErrors } from './core/workspace-errors.js';
export {
  MAX_PATH_BYTES,
  MAX_SEGMENT_BYTES,
  ancestorPaths,
  isWithinPath,
  joinWorkspacePath,
  normalizeWorkspacePath,
  parentPath,
  relativeTo,
} from './path/path-guard.js';
export { ATTACK_PATHS, TRICKY_VALID_PATHS } from './path/attack-paths.js';
export { ISOLATION_SCOPES, effectiveScope, scopeRootDir, scopeRootKey } from './scopes/isolation-scope.js';
export type { IsolationScope, WorkspaceContext } from './scopes/isolation-scope.js';
export { agentWorkspaceRoot } from './scopes/agent-workspace-root.js';
export { MemoryWorkspaceFs } from './memory/memory-workspace-fs.js';
export { LocalWorkspaceFs } from './local/local-workspace-fs.js';
export type { LocalWorkspaceOptions } from './local/local-workspace-fs.js';
export { PostgresWorkspaceFs } from './postgres/postgres-workspace-fs.js';
export type { PostgresWorkspaceOptions } from './postgres/postgres-workspace-fs.js';
export type { ReadAheadPlan } from './postgres/read-ahead.js';
export type { SqlPort } from './postgres/sql-port.js';
export { workspaceTableDdl } from './postgres/workspace-files.ddl.js';
export { WORKSPACE_TABLES } from './postgres/workspace-tables.js';
export type { WorkspaceTable } from './postgres/workspace-tables.js';
export { ReadOnlyWorkspaceFs } from './mounts/read-only-workspace-fs.js';
export { MountedWorkspaceFs } from './mounts/mounted-workspace-fs.js';
export type { WorkspaceMount } from './mounts/mounted-workspace-fs.js';
export { OverlayWorkspaceFs } from './mounts/overlay-workspace-fs.js';
export { KeyedMutex } from './core/keyed-mutex.js';
export { OutputCollector } from './sandbox/output-collector.js';
export { ABORT_EXIT_CODE, killGroup, TIMEOUT_EXIT_CODE } from './sandbox/process-runner.js';
export { BubblewrapSandbox } from './sandbox/bubblewrap-sandbox.js';
export type { BubblewrapSandboxOptions } from './sandbox/bubblewrap-sandbox.js';
export { rootfsBinds } from './sandbox/bwrap-args.js';
export type { SandboxBind, SandboxLimits } from './sandbox/bwrap-args.js';
export { E2bSandbox } from './sandbox/e2b-sandbox.js';
export type { E2bConnection, E2bCreateOptions, E2bSandboxOptions } from './sandbox/e2b-sandbox.js';
export type {
  E2bCommandHandle,
  E2bCommandResult,
  E2bEntry,
  E2bRunOptions,
  E2bSandboxHandle,
} from './sandbox/e2b-handle.js';
export { parseFrontMatter } from './definition/front-matter.js';
export type { FrontMatterDocument } from './definition/front-matter.js';
export { SubtreeViewFs } from './mounts/subtree-view-fs.js';
export type { SubtreeView } from './mounts/subtree-view-fs.js';
export { mountPrefix, openMountSource, openMountTree } from './session-mounts/mount-sources.js';
export type { MountSourceDeps } from './session-mounts/mount-sources.js';
export type { MountContentReader, SkillVersionRow } from './session-mounts/mount-content.js';
