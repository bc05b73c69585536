import { loadWorkerEnv } from '../src/config/env.js';
import { userlandOf } from '../src/userland/userland-of.js';

/**
 * Before the integration and end-to-end tiers: the sandboxes' userland is built once (found in the cache by
 * every later run), never by a test file of its own.
 */
export default async function ensureUserland(): Promise<void> {
  const userland = userlandOf(loadWorkerEnv({ PORT: '0', ...process.env }));
  if (!userland || userland.ready()) return;
  console.log('building the sandbox userland (once per cache)');
  await userland.ensure();
}
