import { handsDurableRoots } from '@agentry/contracts';

/**
 * Where a session's durable Hands copy lives in `hands_workspace_files`: its workspace under the root it
 * always had, and the shell's carried-over state (cwd, exported variables) under a root of its own.
 */
export const handsRoots = handsDurableRoots;

/** The files of the shell's state directory that move with the session (see shell-wrapper.ts). */
export const SHELL_STATE_FILES: ReadonlySet<string> = new Set(['cwd', 'env']);
