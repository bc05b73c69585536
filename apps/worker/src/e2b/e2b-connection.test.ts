import { describe, expect, it } from 'vitest';
import { WorkerEnvSchema } from '../config/env.js';
import { e2bTargetOf } from './e2b-connection.js';

const configWith = (env: Record<string, string>) =>
  WorkerEnvSchema.parse({ AGENTRY_WORKDIR_ROOT: '/tmp/agentry-e2b-connection', ...env });

describe('e2bTargetOf', () => {
  it('refuses E2B on an installation without a key, naming the variable to set', () => {
    expect(() => e2bTargetOf({ provider: 'e2b' }, configWith({}))).toThrow(
      /no E2B API key: set AGENTRY_E2B_API_KEY/,
    );
  });

  it("sends the installation's key to the installation's endpoint", () => {
    const target = e2bTargetOf(
      { provider: 'e2b' },
      configWith({ AGENTRY_E2B_API_KEY: 'e2b_test_key', AGENTRY_E2B_API_URL: 'http://e2b.internal:3000' }),
    );
    expect(target.connection).toMatchObject({ apiKey: 'e2b_test_key', apiUrl: 'http://e2b.internal:3000' });
  });
});
