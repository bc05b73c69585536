import { describe, expect, it } from 'vitest';
import { decideEgress } from './egress-policy.js';

const publicIp = '93.184.216.34';
const resolveTo =
  (...addresses: string[]) =>
  () =>
    Promise.resolve(addresses);
const unrestricted = { type: 'unrestricted' as const, allowedHosts: [] };

describe('egress policy', () => {
  it('admits a public host and connects to the address it checked', async () => {
    expect(
      await decideEgress('example.com', 443, {
        networking: unrestricted,
        privateAllowed: new Set(),
        resolve: resolveTo(publicIp),
      }),
    ).toEqual({ address: publicIp });
  });

  it('refuses hosts outside allowed_hosts under limited networking', async () => {
    const decision = await decideEgress('other.com', 443, {
      networking: { type: 'limited', allowedHosts: ['example.com'] },
      privateAllowed: new Set(),
      resolve: resolveTo(publicIp),
    });
    expect(decision).toEqual({ refusal: "other.com:443 is not in this environment's allowed_hosts" });
  });

  it('refuses loopback, private and metadata addresses whatever the mode, even for an allowed name', async () => {
    const limited = { type: 'limited' as const, allowedHosts: ['internal.example.com'] };
    for (const [host, address] of [
      ['127.0.0.1', '127.0.0.1'],
      ['169.254.169.254', '169.254.169.254'],
      ['internal.example.com', '10.0.0.5'],
      ['rebind.example.com', '::1'],
    ] as const) {
      const networking = host === 'internal.example.com' ? limited : unrestricted;
      const decision = await decideEgress(host, 5432, {
        networking,
        privateAllowed: new Set(),
        resolve: resolveTo(publicIp, address),
      });
      expect(decision, host).toHaveProperty('refusal');
    }
  });

  it('exempts only the exact host:port pairs the installation lists', async () => {
    const privateAllowed = new Set(['127.0.0.1:8080']);
    expect(await decideEgress('127.0.0.1', 8080, { networking: unrestricted, privateAllowed })).toEqual({
      address: '127.0.0.1',
    });
    expect(
      await decideEgress('127.0.0.1', 6379, { networking: unrestricted, privateAllowed }),
    ).toHaveProperty('refusal');
  });

  it('refuses unresolvable names and bad ports', async () => {
    expect(
      await decideEgress('nowhere.invalid', 443, {
        networking: unrestricted,
        privateAllowed: new Set(),
        resolve: async () => Promise.reject(new Error('ENOTFOUND')),
      }),
    ).toEqual({ refusal: 'nowhere.invalid could not be resolved' });
    expect(
      await decideEgress('example.com', 0, {
        networking: unrestricted,
        privateAllowed: new Set(),
        resolve: resolveTo(publicIp),
      }),
    ).toHaveProperty('refusal');
  });
});
