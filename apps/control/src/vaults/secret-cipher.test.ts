import { describe, expect, it, vi } from 'vitest';
import { AppError } from '@agentry/contracts';
import type { Logger } from '@agentry/platform';
import { ControlEnvSchema } from '../config/env.js';
import { SecretCipher } from './secret-cipher.js';

const logger = () => ({ warn: vi.fn() }) as unknown as Logger & { warn: ReturnType<typeof vi.fn> };
const config = (env: Record<string, string>) => ControlEnvSchema.parse({ PORT: '0', ...env });
const KEY = Buffer.alloc(32, 9).toString('base64');

describe('SecretCipher', () => {
  it('round-trips a secret, with a fresh IV each time', () => {
    const cipher = new SecretCipher(config({ AGENTRY_MASTER_KEY: KEY }), logger());
    const a = cipher.seal('s3cret', 'vcrd_1');
    const b = cipher.seal('s3cret', 'vcrd_1');
    expect(Buffer.from(a.ciphertext).toString('utf8')).not.toContain('s3cret');
    expect(Buffer.from(a.iv).equals(Buffer.from(b.iv))).toBe(false);
    expect(cipher.open(a, 'vcrd_1')).toBe('s3cret');
  });

  it('refuses a ciphertext moved to another row, tampered with, or read with another key', () => {
    const cipher = new SecretCipher(config({ AGENTRY_MASTER_KEY: KEY }), logger());
    const sealed = cipher.seal('s3cret', 'vcrd_1');
    expect(() => cipher.open(sealed, 'vcrd_2')).toThrow(AppError);
    const flipped = new Uint8Array(sealed.ciphertext);
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => cipher.open({ ...sealed, ciphertext: flipped }, 'vcrd_1')).toThrow(/cannot be decrypted/);
    const other = new SecretCipher(
      config({ AGENTRY_MASTER_KEY: Buffer.alloc(32, 1).toString('base64') }),
      logger(),
    );
    expect(() => other.open(sealed, 'vcrd_1')).toThrow(AppError);
  });

  it('requires a master key in production and warns about the development key elsewhere', () => {
    expect(() => new SecretCipher(config({ NODE_ENV: 'production' }), logger())).toThrow(
      /AGENTRY_MASTER_KEY/,
    );
    const log = logger();
    const dev = new SecretCipher(config({ NODE_ENV: 'development' }), log);
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('AGENTRY_MASTER_KEY'));
    expect(dev.open(dev.seal('x', 'id'), 'id')).toBe('x');
  });

  it('rejects a master key that is not 32 bytes', () => {
    expect(() => config({ AGENTRY_MASTER_KEY: Buffer.alloc(16).toString('base64') })).toThrow(/32 bytes/);
  });
});
