import { describe, expect, it } from 'vitest';
import { EgressGuard } from '@agentry/harness';
import { egressCheckedFetch } from './egress-checked-fetch.js';

const PUBLIC = '93.184.216.34';
const guard = new EgressGuard({
  resolve: (host) => Promise.resolve(host === 'metadata.example' ? ['169.254.169.254'] : [PUBLIC]),
});

/** A fake network that answers each URL with a scripted response and records what it was asked. */
function network(routes: Record<string, () => Response>) {
  const calls: Array<{ url: string; method: string; authorization: string | null }> = [];
  const doFetch = ((input: URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    calls.push({
      url: input.href,
      method: init?.method ?? 'GET',
      authorization: headers.get('authorization'),
    });
    const route = routes[input.href];
    return Promise.resolve(route ? route() : new Response('not found', { status: 404 }));
  }) as typeof fetch;
  return { doFetch, calls };
}

const redirect =
  (location: string, status = 302) =>
  () =>
    new Response(null, { status, headers: { location } });

describe('egressCheckedFetch', () => {
  it('refuses a redirect from a public MCP server to the metadata address without fetching it', async () => {
    const { doFetch, calls } = network({
      'https://mcp.example/mcp': redirect('http://169.254.169.254/latest/meta-data/'),
    });
    const fetchChecked = egressCheckedFetch(guard, doFetch);
    await expect(fetchChecked('https://mcp.example/mcp', { method: 'POST', body: '{}' })).rejects.toThrow(
      /refused by the egress policy: .*169\.254\.169\.254/,
    );
    expect(calls.map((c) => c.url)).toEqual(['https://mcp.example/mcp']);
  });

  it('checks the resolved address of every hop, not only the URL text', async () => {
    const { doFetch, calls } = network({
      'https://mcp.example/mcp': redirect('https://metadata.example/x', 307),
    });
    await expect(egressCheckedFetch(guard, doFetch)('https://mcp.example/mcp')).rejects.toThrow(
      /metadata\.example resolves to 169\.254\.169\.254/,
    );
    expect(calls).toHaveLength(1);
  });

  it('follows an allowed redirect, keeping credentials only on the same origin', async () => {
    const { doFetch, calls } = network({
      'https://mcp.example/mcp': redirect('/v2/mcp', 308),
      'https://mcp.example/v2/mcp': redirect('https://other.example/mcp', 307),
      'https://other.example/mcp': () => new Response('ok'),
    });
    const response = await egressCheckedFetch(guard, doFetch)('https://mcp.example/mcp', {
      method: 'POST',
      headers: { authorization: 'Bearer tkn' },
      body: '{}',
    });
    expect(await response.text()).toBe('ok');
    expect(calls).toEqual([
      { url: 'https://mcp.example/mcp', method: 'POST', authorization: 'Bearer tkn' },
      { url: 'https://mcp.example/v2/mcp', method: 'POST', authorization: 'Bearer tkn' },
      { url: 'https://other.example/mcp', method: 'POST', authorization: null },
    ]);
  });

  it('gives up after too many redirects', async () => {
    const { doFetch } = network({
      'https://mcp.example/a': redirect('/b'),
      'https://mcp.example/b': redirect('/a'),
    });
    await expect(egressCheckedFetch(guard, doFetch)('https://mcp.example/a')).rejects.toThrow(
      /redirected more than 5 times/,
    );
  });
});
