import { describe, expect, it } from 'vitest';
import { blockedAddressReason } from './blocked-address.js';
import { EgressGuard } from './egress-guard.js';

describe('blocked addresses', () => {
  it.each([
    '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
    '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00:ec2::254', 'fc00::1', '::ffff:127.0.0.1', '::ffff:7f00:1',
    '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe', '2002:7f00:1::', '::127.0.0.1', 'ff02::1',
  ])('refuses %s', (address) => {
    expect(blockedAddressReason(address)).toBeDefined();
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(blockedAddressReason(address)).toBeUndefined();
  });
});

describe('egress guard', () => {
  const resolve = async (host: string) => ({ 'example.com': ['93.184.216.34'], 'sneaky.test': ['93.184.216.34', '10.0.0.5'], 'metadata.google.internal': ['169.254.169.254'] })[host] ?? [];
  const guard = new EgressGuard({ resolve });

  it('judges numeric host spellings as the address they are', async () => {
    for (const url of ['http://0x7f000001/readyz', 'http://2130706433/', 'http://0177.0.0.1/', 'http://127.1/', 'http://[::1]:8080/', 'http://[::ffff:7f00:1]/']) {
      expect(await guard.refusal(new URL(url)), url).toMatch(/not allowed/);
    }
  });

  it('checks every address a name resolves to', async () => {
    expect(await guard.refusal(new URL('https://example.com/x'))).toBeUndefined();
    expect(await guard.refusal(new URL('https://sneaky.test/'))).toMatch(/10\.0\.0\.5, a private address/);
    expect(await guard.refusal(new URL('http://metadata.google.internal/computeMetadata/v1/'))).toMatch(/169\.254\.169\.254/);
    expect(await guard.refusal(new URL('http://unknown.test/'))).toMatch(/could not be resolved/);
  });

  it('refuses other schemes, and lets an installation open private networks', async () => {
    expect(await guard.refusal(new URL('file:///etc/passwd'))).toMatch(/Only http and https/);
    expect(await new EgressGuard({ allowPrivateNetworks: true, resolve }).refusal(new URL('http://127.0.0.1/'))).toBeUndefined();
  });
});
