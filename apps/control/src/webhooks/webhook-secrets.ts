import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Webhook } from '@agentry/db';
import { SecretCipher } from '../vaults/secret-cipher.js';

/** Columns of one sealed secret on the webhooks row. */
export interface SealedColumns {
  secretCiphertext: Uint8Array<ArrayBuffer>;
  secretIv: Uint8Array<ArrayBuffer>;
  secretTag: Uint8Array<ArrayBuffer>;
}

/**
 * Signing secrets in the Standard Webhooks form (`whsec_` + base64 of 24 random bytes), sealed at rest
 * with the vault cipher and bound to the endpoint's id.
 */
@Injectable()
export class WebhookSecrets {
  constructor(private readonly cipher: SecretCipher) {}

  generate(): string {
    return `whsec_${randomBytes(24).toString('base64')}`;
  }

  seal(secret: string, webhookId: string): SealedColumns {
    const sealed = this.cipher.seal(secret, webhookId);
    return { secretCiphertext: sealed.ciphertext, secretIv: sealed.iv, secretTag: sealed.tag };
  }

  /** The secrets deliveries are signed with at `now`: the current one, then the previous one in its grace. */
  signing(row: Webhook, now: Date): string[] {
    const current = this.open(row.secretCiphertext, row.secretIv, row.secretTag, row.id);
    const { previousSecretCiphertext: ct, previousSecretIv: iv, previousSecretTag: tag } = row;
    const graceful = row.previousSecretExpiresAt && row.previousSecretExpiresAt > now;
    if (!graceful || !ct || !iv || !tag) return [current];
    return [current, this.open(ct, iv, tag, row.id)];
  }

  private open(ciphertext: Uint8Array, iv: Uint8Array, tag: Uint8Array, id: string): string {
    return this.cipher.open(
      {
        ciphertext: new Uint8Array(ciphertext),
        iv: new Uint8Array(iv),
        tag: new Uint8Array(tag),
      },
      id,
    );
  }
}
