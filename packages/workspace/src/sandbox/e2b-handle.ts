/**
 * The slice of the `e2b` SDK's `Sandbox` the E2B backend uses. A real `Sandbox` satisfies it; tests
 * inject a fake with the same shape.
 */
export interface E2bEntry {
  name: string;
  path: string;
  type?: string;
  size: number;
  modifiedTime?: Date;
}

export interface E2bCommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface E2bCommandHandle {
  readonly pid: number;
  /** Resolves with the result; the SDK rejects with a CommandExitError (which carries exitCode) on non-zero exit. */
  wait(): Promise<E2bCommandResult>;
  kill(): Promise<boolean>;
}

export interface E2bRunOptions {
  background: true;
  cwd?: string;
  envs?: Record<string, string>;
  timeoutMs?: number;
  onStdout?: (data: string) => void;
  onStderr?: (data: string) => void;
}

export interface E2bSandboxHandle {
  readonly sandboxId: string;
  files: {
    read(path: string, opts: { format: 'bytes' }): Promise<Uint8Array>;
    write(path: string, data: ArrayBuffer): Promise<unknown>;
    list(path: string, opts?: { depth?: number }): Promise<E2bEntry[]>;
    getInfo(path: string): Promise<E2bEntry>;
    makeDir(path: string): Promise<boolean>;
    rename(oldPath: string, newPath: string): Promise<unknown>;
    remove(path: string): Promise<void>;
  };
  commands: {
    run(cmd: string, opts: E2bRunOptions): Promise<E2bCommandHandle>;
  };
  kill(): Promise<boolean>;
  pause(): Promise<boolean>;
}
