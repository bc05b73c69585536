import { describe, expect, it } from 'vitest';
import { BaseEnvSchema } from './base-env.js';
import { loadConfig } from './load-config.js';

describe('loadConfig', () => {
  it('fills defaults from an almost empty environment', () => {
    const config = loadConfig(BaseEnvSchema, { PORT: '9000' });
    expect(config).toMatchObject({
      PORT: 9000,
      AGENTRY_ENV: 'dev',
      AGENTRY_SUBJECT_PREFIX: '',
      NATS_URL: 'nats://127.0.0.1:4222',
    });
  });

  it('names every bad variable in one error', () => {
    expect(() =>
      loadConfig(BaseEnvSchema, {
        PORT: 'eighty',
        AGENTRY_SUBJECT_PREFIX: 'no dots allowed here',
        DATABASE_URL: 'nope',
      }),
    ).toThrow(/PORT[\s\S]*AGENTRY_SUBJECT_PREFIX|AGENTRY_SUBJECT_PREFIX[\s\S]*PORT/);
    try {
      loadConfig(BaseEnvSchema, { PORT: 'eighty', DATABASE_URL: 'nope' });
    } catch (error) {
      expect((error as Error).message).toContain('DATABASE_URL');
      expect((error as Error).message).toContain('PORT');
    }
  });
});
