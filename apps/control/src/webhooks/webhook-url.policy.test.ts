import { describe, expect, it } from 'vitest';
import { AppError } from '@agentry/contracts';
import { WebhookUrlPolicy } from './webhook-url.policy.js';

const policy = (allow: boolean) =>
  new WebhookUrlPolicy({ AGENTRY_WEBHOOK_ALLOW_PRIVATE_NETWORKS: allow, AGENTRY_WEBHOOK_ALLOWED_HOSTS: [] });

describe('WebhookUrlPolicy', () => {
  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://[::1]/hook',
    'http://2130706433/hook',
    'http://10.1.2.3/hook',
    'http://169.254.169.254/latest/meta-data',
  ])('refuses %s by default, saying which address it is', async (url) => {
    const refused = await policy(false)
      .check(url)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('INVALID_REQUEST');
    expect((refused as AppError).message).toMatch(/^url: .* resolves to .*address/);
  });

  it('accepts a loopback receiver when the installation allows private networks', async () => {
    await expect(policy(true).check('http://127.0.0.1:8080/hook')).resolves.toBeUndefined();
    await expect(policy(true).check('http://localhost/hook')).resolves.toBeUndefined();
  });

  it('accepts a public address either way', async () => {
    await expect(policy(false).check('https://93.184.215.14/hook')).resolves.toBeUndefined();
  });
});
