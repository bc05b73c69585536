import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * This worker process's name on the bus: sessions bound to it are sent to its own subject. Fixed when
 * the module loads, since handler subjects are declared with the class; new on every start, so a
 * restarted worker never inherits the bindings (and half-run calls) of its former self.
 */
export const WORKER_ID = `${(process.env.AGENTRY_WORKER_NAME ?? hostname()).replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 40)}-${randomBytes(4).toString('hex')}`;
