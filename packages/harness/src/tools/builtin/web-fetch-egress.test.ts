import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceWith } from '../../loop/run-collect.fixture.js';
import type { ToolContext, ToolOutcome } from '../tool.js';
import { createWebFetchTool } from './web-fetch.tool.js';

const text = (o: ToolOutcome): string =>
  o.status === 'pending' ? '' : o.content.map((b) => (b.type === 'text' ? b.text : '')).join('');

describe('web_fetch never reaches private addresses unless allowed', () => {
  let server: Server;
  let port: number;
  let hits = 0;
  let ctx: ToolContext;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits += 1;
      res.end('internal secret');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    ctx = {
      toolCallId: 'sevt_t',
      fs: await workspaceWith(),
      signal: new AbortController().signal,
      sessionId: 's',
      agentId: 'a',
      values: {},
    };
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('refuses loopback in any spelling, and names a hostname resolving to it', async () => {
    const tool = createWebFetchTool({
      resolve: (host) => Promise.resolve(host === 'inside.test' ? ['127.0.0.1'] : []),
    });
    for (const url of [
      `http://127.0.0.1:${port}/readyz`,
      `http://0x7f000001:${port}/`,
      `http://2130706433:${port}/`,
      `http://[::1]:${port}/`,
      `http://inside.test:${port}/`,
    ]) {
      const outcome = await tool.execute({ url }, ctx);
      expect(outcome, url).toMatchObject({ status: 'error', reason: 'egress_denied' });
      expect(text(outcome)).toMatch(/loopback address; fetching it is not allowed/);
    }
    expect(await tool.execute({ url: 'http://169.254.169.254/latest/meta-data/' }, ctx)).toMatchObject({
      reason: 'egress_denied',
    });
    expect(hits).toBe(0);
  });

  it('checks every redirect hop: a public page redirecting inside is refused', async () => {
    const requested: string[] = [];
    const fakeFetch = ((input: URL | string) => {
      requested.push(String(input));
      return Promise.resolve(
        new Response(null, { status: 302, headers: { location: `http://127.0.0.1:${port}/readyz` } }),
      );
    }) as typeof fetch;
    const tool = createWebFetchTool({ fetch: fakeFetch, resolve: () => Promise.resolve(['93.184.216.34']) });
    const outcome = await tool.execute({ url: 'https://public.test/moved' }, ctx);
    expect(outcome).toMatchObject({ status: 'error', reason: 'egress_denied' });
    expect(requested).toEqual(['https://public.test/moved']);
    expect(hits).toBe(0);
  });

  it('refuses a name that answers a public address for the check and loopback for the connection', async () => {
    let answers = 0;
    const rebinding = () => Promise.resolve((answers += 1) === 1 ? ['93.184.216.34'] : ['127.0.0.1']);
    // `localhost` is what the system resolver dials if the connection resolves the name again by itself.
    const outcome = await createWebFetchTool({ resolve: rebinding }).execute(
      { url: `http://localhost:${port}/` },
      ctx,
    );
    expect(outcome).toMatchObject({ status: 'error', reason: 'egress_denied' });
    expect(text(outcome)).toMatch(/127\.0\.0\.1, a loopback address/);
    expect(hits).toBe(0);
  });

  it('reaches loopback when the installation allows private networks', async () => {
    const tool = createWebFetchTool({ allowPrivateNetworks: true });
    expect(text(await tool.execute({ url: `http://127.0.0.1:${port}/` }, ctx))).toContain('internal secret');
    expect(hits).toBe(1);
  });

  it("with limited networking fetches only the environment's allowed hosts, on every redirect hop", async () => {
    const requested: string[] = [];
    const fakeFetch = ((input: URL | string) => {
      requested.push(String(input));
      return Promise.resolve(
        String(input).includes('/moved')
          ? new Response(null, { status: 302, headers: { location: 'https://attacker.test/?token=x' } })
          : new Response('docs', { status: 200, headers: { 'content-type': 'text/plain' } }),
      );
    }) as typeof fetch;
    const tool = createWebFetchTool({
      fetch: fakeFetch,
      resolve: () => Promise.resolve(['93.184.216.34']),
      limitedTo: ['docs.test', 'api.test:8443'],
    });
    expect(text(await tool.execute({ url: 'https://DOCS.test/page' }, ctx))).toContain('docs');
    for (const url of ['https://attacker.test/?token=x', 'https://api.test/', 'https://docs.test/moved']) {
      const outcome = await tool.execute({ url }, ctx);
      expect(outcome, url).toMatchObject({ status: 'error', reason: 'egress_denied' });
      expect(text(outcome), url).toMatch(/:443 is not in this environment's allowed_hosts/);
    }
    expect(requested).toEqual(['https://docs.test/page', 'https://docs.test/moved']);
  });
});
