import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { FileNotFoundError } from 'e2b';
import { settle } from '../core/settle.js';
import type {
  E2bCommandHandle,
  E2bCommandResult,
  E2bEntry,
  E2bRunOptions,
  E2bSandboxHandle,
} from '../sandbox/e2b-handle.js';

interface RecordedRun {
  cmd: string;
  opts: E2bRunOptions;
  killed: boolean;
}

/**
 * Stands in for an E2B sandbox in tests: the sandbox filesystem is a host directory and commands run
 * through the host /bin/sh (no isolation). It follows envd's observable behaviour: writes create parent
 * directories, remove is recursive, missing paths raise FileNotFoundError, non-zero exits reject wait().
 */
export class FakeE2bSandbox implements E2bSandboxHandle {
  readonly sandboxId = 'fake-sandbox';
  readonly runs: RecordedRun[] = [];
  killed = false;
  paused = false;

  constructor(private readonly hostDir: string) {}

  private host(path: string): string {
    return join(this.hostDir, path);
  }

  private async entry(path: string): Promise<E2bEntry> {
    try {
      const s = await stat(this.host(path));
      return {
        name: posix.basename(path),
        path,
        type: s.isDirectory() ? 'dir' : 'file',
        size: s.size,
        modifiedTime: s.mtime,
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw code === 'ENOENT' || code === 'ENOTDIR'
        ? new FileNotFoundError(`path '${path}' does not exist`)
        : error;
    }
  }

  files: E2bSandboxHandle['files'] = {
    read: async (path) => {
      await this.entry(path);
      return new Uint8Array(await readFile(this.host(path)));
    },
    write: async (path, data) => {
      await mkdir(dirname(this.host(path)), { recursive: true });
      await writeFile(this.host(path), new Uint8Array(data));
      return { name: posix.basename(path), path };
    },
    list: async (path, opts) => {
      await this.entry(path);
      const out: E2bEntry[] = [];
      const walk = async (dir: string, depth: number): Promise<void> => {
        for (const name of await readdir(this.host(dir))) {
          const child = posix.join(dir, name);
          const e = await this.entry(child);
          out.push(e);
          if (e.type === 'dir' && depth > 1) await walk(child, depth - 1);
        }
      };
      await walk(path, opts?.depth ?? 1);
      return out;
    },
    getInfo: (path) => this.entry(path),
    makeDir: async (path) => {
      const existed = await this.entry(path).then(
        () => true,
        () => false,
      );
      await mkdir(this.host(path), { recursive: true });
      return !existed;
    },
    rename: async (from, to) => {
      await rename(this.host(from), this.host(to));
      return this.entry(to);
    },
    remove: async (path) => rm(this.host(path), { recursive: true, force: true }),
  };

  commands: E2bSandboxHandle['commands'] = {
    run: (cmd, opts) =>
      settle(() => {
        const record: RecordedRun = { cmd, opts, killed: false };
        this.runs.push(record);
        const child = spawn('/bin/sh', ['-c', cmd], {
          cwd: this.host(opts.cwd ?? '/'),
          env: { PATH: '/usr/bin:/bin', ...opts.envs },
          detached: true,
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => ((stdout += d.toString()), opts.onStdout?.(d.toString())));
        child.stderr.on('data', (d: Buffer) => ((stderr += d.toString()), opts.onStderr?.(d.toString())));
        const done = new Promise<E2bCommandResult>((resolve, reject) => {
          child.on('close', (code) => {
            const result = { exitCode: code ?? 137, stdout, stderr };
            if (result.exitCode === 0) resolve(result);
            else
              reject(
                Object.assign(new Error(`exit status ${result.exitCode}`), {
                  name: 'CommandExitError',
                  ...result,
                }),
              );
          });
        });
        const handle: E2bCommandHandle = {
          pid: child.pid ?? 0,
          wait: () => done,
          kill: () => {
            record.killed = true;
            try {
              process.kill(-(child.pid ?? 0), 'SIGKILL');
            } catch {
              return Promise.resolve(false);
            }
            return Promise.resolve(true);
          },
        };
        return handle;
      }),
  };

  kill(): Promise<boolean> {
    this.killed = true;
    return Promise.resolve(true);
  }

  pause(): Promise<boolean> {
    this.paused = true;
    return Promise.resolve(true);
  }
}
