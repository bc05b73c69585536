import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '@agentry/contracts';
import { LOGGER, type Logger } from '@agentry/platform';
import { CONTROL_CONFIG } from '../config/control-config.token.js';
import type { ControlEnv } from '../config/env.js';

export interface SealedSecret {
  ciphertext: Uint8Array<ArrayBuffer>;
  iv: Uint8Array<ArrayBuffer>;
  tag: Uint8Array<ArrayBuffer>;
  keyVersion: number;
}

/** Publicly known, so only ever acceptable outside production. */
const DEV_MASTER_KEY = Buffer.from('agentry-development-master-key!!', 'utf8');

/**
 * AES-256-GCM for vault secrets at rest. The owning row's id is bound in as associated data, so a
 * ciphertext copied onto another row does not decrypt.
 */
@Injectable()
export class SecretCipher {
  private readonly key: Buffer;

  constructor(@Inject(CONTROL_CONFIG) config: ControlEnv, @Inject(LOGGER) logger: Logger) {
    if (config.AGENTRY_MASTER_KEY) {
      this.key = Buffer.from(config.AGENTRY_MASTER_KEY, 'base64');
    } else if (config.NODE_ENV === 'production') {
      throw new Error('AGENTRY_MASTER_KEY must be set in production (base64 of 32 random bytes)');
    } else {
      logger.warn(
        'AGENTRY_MASTER_KEY is not set: vault secrets are encrypted with the public development key',
      );
      this.key = DEV_MASTER_KEY;
    }
  }

  seal(plaintext: string, ownerId: string): SealedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(ownerId, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return {
      ciphertext: new Uint8Array(ciphertext),
      iv: new Uint8Array(iv),
      tag: new Uint8Array(cipher.getAuthTag()),
      keyVersion: 1,
    };
  }

  open(sealed: Omit<SealedSecret, 'keyVersion'>, ownerId: string): string {
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.iv);
      decipher.setAAD(Buffer.from(ownerId, 'utf8'));
      decipher.setAuthTag(sealed.tag);
      return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
    } catch (cause) {
      throw new AppError(
        'INTERNAL',
        `The secret of ${ownerId} cannot be decrypted with the configured master key`,
        { cause },
      );
    }
  }
}
