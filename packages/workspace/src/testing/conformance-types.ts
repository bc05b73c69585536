import type { SandboxFs, WorkspaceFs } from '../port.js';

export interface WorkspaceUnderTest<F extends WorkspaceFs = WorkspaceFs> {
  fs: F;
  cleanup?: () => Promise<void>;
  /** Creates a symlink inside the root pointing at `target` (a host path); backends without symlinks omit it. */
  createSymlink?: (path: string, target: string) => Promise<void>;
  /** A host path outside the root the symlink tests may point at (a directory holding `secret.txt`). */
  outsideDir?: string;
  /** Anything the backend stored outside this workspace's root (host files, rows of other roots); must stay empty. */
  escapedEntries?: () => Promise<string[]>;
}

export interface WorkspaceFactoryOptions {
  maxFileBytes?: number;
}

export type WorkspaceFactory = (options: WorkspaceFactoryOptions) => Promise<WorkspaceUnderTest>;
export type SandboxFactory = (options: WorkspaceFactoryOptions) => Promise<WorkspaceUnderTest<SandboxFs>>;
