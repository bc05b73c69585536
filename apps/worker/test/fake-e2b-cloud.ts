import { join } from 'node:path';
import {
  E2bSandbox,
  type E2bConnection,
  type E2bCreateOptions,
  type E2bSandboxOptions,
} from '@agentry/workspace';
import { FakeE2bSandbox } from '@agentry/workspace/testing';
import type { E2bSandboxFactory } from '../src/e2b/e2b-sandbox-factory.js';

interface FakeSandbox {
  handle: FakeE2bSandbox;
  state: 'running' | 'paused' | 'killed';
}

/** Answers a request as the SDK does: what `work` throws arrives as a rejected promise. */
function answered<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => resolve(work()));
}

/**
 * E2B as the worker sees it, in process: each sandbox is a host directory whose commands run on the host
 * shell (see FakeE2bSandbox). It records what was asked of it, and `down` makes every request fail as an
 * unreachable provider does.
 */
export class FakeE2bCloud implements E2bSandboxFactory {
  readonly sandboxes = new Map<string, FakeSandbox>();
  readonly requests: string[] = [];
  readonly createOptions: E2bCreateOptions[] = [];
  readonly connectOptions: Array<E2bConnection & { sandboxTimeoutMs?: number }> = [];
  down = false;
  private next = 1;

  constructor(private readonly root: string) {}

  workdirOf(sandboxId: string): string {
    return join(this.root, sandboxId, 'workspace');
  }

  create(options: E2bCreateOptions): Promise<E2bSandbox> {
    return answered(() => {
      this.reachable('create');
      const sandboxId = `sbx_${this.next++}`;
      this.createOptions.push(options);
      return this.open(sandboxId, options);
    });
  }

  connect(
    sandboxId: string,
    options: E2bConnection & E2bSandboxOptions & { sandboxTimeoutMs?: number },
  ): Promise<E2bSandbox> {
    return answered(() => {
      this.reachable(`connect ${sandboxId}`);
      this.connectOptions.push(options);
      const sandbox = this.sandboxes.get(sandboxId);
      if (!sandbox || sandbox.state === 'killed')
        throw Object.assign(new Error(`Sandbox ${sandboxId} not found`), { name: 'SandboxNotFoundError' });
      sandbox.state = 'running';
      return this.open(sandboxId, options);
    });
  }

  kill(sandboxId: string): Promise<boolean> {
    return answered(() => {
      this.reachable(`kill ${sandboxId}`);
      const sandbox = this.sandboxes.get(sandboxId);
      if (!sandbox || sandbox.state === 'killed') return false;
      sandbox.state = 'killed';
      return true;
    });
  }

  stateOf(sandboxId: string): FakeSandbox['state'] | undefined {
    return this.sandboxes.get(sandboxId)?.state;
  }

  private reachable(request: string): void {
    this.requests.push(request);
    if (this.down)
      throw Object.assign(new Error('connect ECONNREFUSED api.e2b.test:443'), { name: 'ConnectionError' });
  }

  /** The paths the fake handle sees are host paths, so the workspace is the sandbox's own directory. */
  private open(sandboxId: string, options: E2bSandboxOptions): E2bSandbox {
    const handle = Object.assign(new FakeE2bSandbox('/'), { sandboxId });
    const known = this.sandboxes.get(sandboxId);
    const sandbox: FakeSandbox = known ?? { handle, state: 'running' };
    sandbox.handle = handle;
    this.sandboxes.set(sandboxId, sandbox);
    // The handle's own pause and kill (idle reaping, session end) are what the SDK would send.
    handle.pause = () =>
      answered(() => {
        this.reachable(`pause ${sandboxId}`);
        sandbox.state = 'paused';
        return true;
      });
    handle.kill = () => this.kill(sandboxId);
    const commands = handle.commands;
    handle.commands = {
      run: (cmd, opts) => {
        this.reachable('run');
        if (sandbox.state !== 'running') throw new Error(`sandbox ${sandboxId} is ${sandbox.state}`);
        return commands.run(cmd, opts);
      },
    };
    return new E2bSandbox(handle, { ...options, workdir: this.workdirOf(sandboxId) });
  }

  /** Every command the session's sandboxes ran, with whether it was killed. */
  runs(sandboxId: string): FakeE2bSandbox['runs'] {
    return this.sandboxes.get(sandboxId)?.handle.runs ?? [];
  }
}
