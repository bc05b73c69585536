import { describe, expect, it } from 'vitest';
import type { SandboxCredential } from '@agentry/contracts';
import { placeholderEnv, placeholderOf, swapBody, swapHeaders, swapsFor } from './credential-swap.js';

const credential = (over: Partial<SandboxCredential> = {}): SandboxCredential => ({
  credential_id: 'vcrd_1',
  secret_name: 'API_TOKEN',
  secret_value: 's3cret-value',
  networking: { type: 'limited', allowed_hosts: ['api.example.com'] },
  injection_location: { header: true, body: false },
  ...over,
});

describe('credential swap', () => {
  it('gives the sandbox a stable placeholder that carries nothing of the secret', () => {
    const env = placeholderEnv([credential()]);
    expect(env.API_TOKEN).toBe(placeholderOf(credential({ secret_value: 'another value' })));
    expect(env.API_TOKEN).not.toContain('s3cret');
    expect(placeholderOf(credential({ credential_id: 'vcrd_2' }))).not.toBe(env.API_TOKEN);
  });

  it('swaps only for hosts the credential admits, and only where it is injected', () => {
    const placeholder = placeholderOf(credential());
    expect(swapsFor([credential()], 'other.example.com', 443)).toEqual([]);
    const swaps = swapsFor([credential()], 'API.example.com', 443);
    expect(
      swapHeaders({ authorization: `Bearer ${placeholder}`, 'x-list': [placeholder, 'a'] }, swaps),
    ).toEqual({
      authorization: 'Bearer s3cret-value',
      'x-list': ['s3cret-value', 'a'],
    });
    const body = Buffer.from(`{"token":"${placeholder}"}`);
    expect(swapBody(body, swaps)).toBe(body);
    const withBody = swapsFor(
      [credential({ injection_location: { header: false, body: true } })],
      'api.example.com',
      443,
    );
    expect(swapBody(Buffer.from(`a=${placeholder}&b=${placeholder}`), withBody).toString()).toBe(
      'a=s3cret-value&b=s3cret-value',
    );
    expect(swapHeaders({ authorization: placeholder }, withBody)).toEqual({ authorization: placeholder });
    expect(swapsFor([credential({ networking: { type: 'unrestricted' } })], 'anywhere.net', 80)).toHaveLength(
      1,
    );
  });
});
