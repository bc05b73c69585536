import { randomBytes } from 'node:crypto';

/** The NATS server tests use: `NATS_URL`, else the local one. */
export function testNatsUrl(): string {
  return process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
}

/**
 * A subject prefix no other test file uses, ending in a dot: `test-<random>.`, so
 * `${prefix}evt.sesn_1` never reaches a subscriber of another test file.
 */
export function testSubjectPrefix(): string {
  return `test-${randomBytes(6).toString('hex')}.`;
}
