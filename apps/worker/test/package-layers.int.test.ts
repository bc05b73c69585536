import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layerKey, packageSetOf } from '../src/userland/package-set.js';
import { servePipIndex } from './pip-index.js';
import { startHands, type Hands } from './sandbox-fixture.js';

const hasBwrap = existsSync('/usr/bin/bwrap');

/**
 * An environment's `pip` packages come from the configured index (a mirror of PyPI, here one on loopback)
 * into the environment's layer, built in a sandbox that reaches nothing but the registries.
 */
describe.runIf(hasBwrap)('pip packages from the configured index', () => {
  // A name of its own per run, so the layer is built by this run rather than found in the cache.
  const name = `agentry-probe-${randomBytes(4).toString('hex')}`;
  let index: Awaited<ReturnType<typeof servePipIndex>>;
  let hands: Hands;
  let layer = '';

  beforeAll(async () => {
    index = await servePipIndex(name, '1.0', 'from the loopback index');
    hands = await startHands(
      {
        AGENTRY_PACKAGES_PIP_INDEX_URL: index.url,
        AGENTRY_SANDBOX_EGRESS_PRIVATE_ALLOWED: `127.0.0.1:${index.port}`,
      },
      [],
      { packages: { pip: [`${name}==1.0`] } },
    );
    layer = join(
      hands.config.AGENTRY_USERLAND_CACHE_DIR,
      'layers',
      layerKey(hands.images.base!.id, packageSetOf({ pip: [`${name}==1.0`] })),
    );
  }, 600_000);

  afterAll(async () => {
    await hands?.stop();
    await index?.close();
    if (layer) await rm(layer, { recursive: true, force: true });
  });

  it('installs the package into the layer, which the session imports', async () => {
    const module = name.replace(/-/g, '_');
    const run = await hands.run(
      'sess_pip',
      'bash',
      { command: `python3 -c "import ${module}; print(${module}.VALUE, ${module}.__file__)"` },
      { timeoutMs: 300_000 },
    );
    expect(hands.text(run)).toBe(
      `from the loopback index /usr/local/lib/python3.13/dist-packages/${module}/__init__.py`,
    );
    expect(index.requests).toContain(`/simple/${name}/`);
    expect(existsSync(join(layer, 'root/usr/local/lib/python3.13/dist-packages', module))).toBe(true);
    expect(hands.images.layerBuilds).toBe(1);
    expect(hands.reports.at(-1)).toMatchObject({ environmentId: 'env_hands', status: 'ready', error: null });
    expect(hands.reports.at(-1)?.log).toContain(`Successfully installed ${name}-1.0`);
  }, 600_000);
});
