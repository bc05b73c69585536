import { loadWorkerEnv } from '../config/env.js';
import { userlandOf } from './userland-of.js';

/**
 * `node apps/worker/dist/userland/userland-cli.js`: makes sure the configured base userland is built
 * (preparation steps and images run it, so a worker's first tool call does not wait for it) and prints
 * its root.
 */
const userland = userlandOf(loadWorkerEnv({ PORT: '0', ...process.env }));
if (!userland) {
  console.log('host');
} else {
  const started = performance.now();
  const root = await userland.ensure();
  console.log(root);
  console.error(`userland ${userland.id} ready (${Math.round((performance.now() - started) / 1000)} s)`);
}
