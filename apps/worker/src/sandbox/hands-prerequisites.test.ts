import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkerEnvSchema } from '../config/env.js';
import { missingHandsPackages } from './hands-prerequisites.js';

describe('the system packages the Hands lack (named when the worker starts and in the start banner)', () => {
  it('names socat when it is not on the PATH and sandboxes run on the host /usr', async () => {
    const bin = await mkdtemp(join(tmpdir(), 'path-'));
    try {
      const host = WorkerEnvSchema.parse({ PORT: '0', AGENTRY_USERLAND: 'host' });
      expect(missingHandsPackages(host, bin).map((m) => m.package)).toEqual(['socat']);
      await symlink('/usr/bin/socat', join(bin, 'socat'));
      expect(missingHandsPackages(host, bin)).toEqual([]);
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
  });

  it('names mmdebstrap while the userland is still to be built, and bubblewrap when it is missing', () => {
    const config = WorkerEnvSchema.parse({
      PORT: '0',
      AGENTRY_USERLAND_CACHE_DIR: '/nonexistent/cache',
      AGENTRY_SANDBOX_BWRAP_PATH: '/nonexistent/bwrap',
    });
    expect(missingHandsPackages(config, '/nonexistent').map((m) => m.package)).toEqual([
      'bubblewrap',
      'mmdebstrap',
    ]);
  });
});
