import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { blockedAddressReason } from './blocked-address.js';
import { EgressGuard, guarded } from './egress-guard.js';

describe('blocked addresses', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
    '::127.0.0.1',
    'ff02::1',
  ])('refuses %s', (address) => {
    expect(blockedAddressReason(address)).toBeDefined();
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => {
      expect(blockedAddressReason(address)).toBeUndefined();
    },
  );
});

describe('egress guard', () => {
  const addresses: Record<string, string[]> = {
    'example.com': ['93.184.216.34'],
    'sneaky.test': ['93.184.216.34', '10.0.0.5'],
    'metadata.google.internal': ['169.254.169.254'],
  };
  const resolve = (host: string) => Promise.resolve(addresses[host] ?? []);
  const guard = new EgressGuard({ resolve });

  it('judges numeric host spellings as the address they are', async () => {
    for (const url of [
      'http://0x7f000001/readyz',
      'http://2130706433/',
      'http://0177.0.0.1/',
      'http://127.1/',
      'http://[::1]:8080/',
      'http://[::ffff:7f00:1]/',
    ]) {
      expect(await guard.refusal(new URL(url)), url).toMatch(/not allowed/);
    }
  });

  it('checks every address a name resolves to', async () => {
    expect(await guard.refusal(new URL('https://example.com/x'))).toBeUndefined();
    expect(await guard.refusal(new URL('https://sneaky.test/'))).toMatch(/10\.0\.0\.5, a private address/);
    expect(await guard.refusal(new URL('http://metadata.google.internal/computeMetadata/v1/'))).toMatch(
      /169\.254\.169\.254/,
    );
    expect(await guard.refusal(new URL('http://unknown.test/'))).toMatch(/could not be resolved/);
  });

  it('refuses other schemes, and lets an installation open private networks', async () => {
    expect(await guard.refusal(new URL('file:///etc/passwd'))).toMatch(/Only http and https/);
    expect(
      await new EgressGuard({ allowPrivateNetworks: true, resolve }).refusal(new URL('http://127.0.0.1/')),
    ).toBeUndefined();
  });

  it('lets through only the hosts an installation names, port included', async () => {
    const narrow = new EgressGuard({ allowedHosts: ['127.0.0.1:8123', 'hooks.internal'], resolve });
    expect(await narrow.refusal(new URL('http://127.0.0.1:8123/hook'))).toBeUndefined();
    expect(await narrow.refusal(new URL('http://127.0.0.1:8124/hook'))).toMatch(/loopback/);
    expect(await narrow.refusal(new URL('http://localhost:8123/hook'))).toMatch(
      /could not be resolved|loopback/,
    );
    expect(await narrow.refusal(new URL('http://HOOKS.internal/x'))).toBeUndefined();
    expect(await narrow.refusal(new URL('https://sneaky.test/'))).toMatch(/private address/);
  });
});

describe('egress guard dispatcher', () => {
  it('dials only the address it admitted, so a name that resolves elsewhere the second time is refused', async () => {
    const hits: string[] = [];
    const server = createServer((request, response) => {
      hits.push(request.url ?? '');
      response.end('internal secret');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // A rebinding name: public for the check, loopback for every later answer.
    let answers = 0;
    const guard = new EgressGuard({
      resolve: () => Promise.resolve((answers += 1) === 1 ? ['93.184.216.34'] : ['127.0.0.1']),
    });
    // `localhost` is what the system resolver would dial without the pinned dispatcher.
    const url = new URL(`http://localhost:${port}/metadata`);
    try {
      expect(await guard.refusal(url)).toBeUndefined();
      const error = await fetch(url, guarded(guard)).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(String((error?.cause as Error | undefined)?.message)).toMatch(
        /127\.0\.0\.1, a loopback address/,
      );
      expect(hits).toEqual([]);
    } finally {
      server.close();
    }
  });

  it('connects to an admitted address, and to anything when the installation opens private networks', async () => {
    const server = createServer((_request, response) => response.end('hello'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const open = new EgressGuard({
        allowPrivateNetworks: true,
        resolve: () => Promise.resolve(['127.0.0.1']),
      });
      const response = await fetch(`http://service.internal:${port}/`, guarded(open));
      expect(await response.text()).toBe('hello');
    } finally {
      server.close();
    }
  });
});
