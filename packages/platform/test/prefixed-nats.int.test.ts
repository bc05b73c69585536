import { Controller, Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern } from '@nestjs/microservices';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcSubject } from '@agentry/contracts';
import { z } from 'zod';
import { createLogger, PrefixedClientNats, PrefixedServerNats, RpcClient } from '../src/index.js';

const Echo = rpcSubject(
  'test.echo',
  z.object({ text: z.string() }),
  z.object({ text: z.string(), from: z.string() }),
);

const Fail = rpcSubject('test.fail', z.object({}), z.object({}));

function echoModule(from: string) {
  @Controller()
  class EchoHandler {
    @MessagePattern(Fail.subject)
    fail(): never {
      throw new Error('handler failed');
    }

    @MessagePattern(Echo.subject)
    echo(payload: { text: string }) {
      return { ok: true, data: { text: payload.text, from } };
    }
  }
  @Module({ controllers: [EchoHandler] })
  class EchoModule {}
  return EchoModule;
}

describe('NATS request/reply under an installation prefix', () => {
  const apps: INestApplication[] = [];
  const clients: RpcClient[] = [];
  const suffix = Math.random().toString(36).slice(2, 8);

  async function server(prefix: string, from: string) {
    const app = await NestFactory.createMicroservice(echoModule(from), {
      strategy: new PrefixedServerNats(
        { servers: ['nats://127.0.0.1:4222'], queue: 'echo' },
        prefix,
        createLogger('echo-test', 'silent'),
      ),
      logger: false,
    });
    await app.listen();
    apps.push(app as unknown as INestApplication);
  }
  async function client(prefix: string) {
    const proxy = new PrefixedClientNats({ servers: ['nats://127.0.0.1:4222'] }, prefix);
    await proxy.connect();
    const rpc = new RpcClient(proxy, 2_000);
    clients.push(rpc);
    return rpc;
  }

  beforeAll(async () => {
    await server(`a${suffix}.`, 'a');
    await server(`b${suffix}.`, 'b');
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(apps.map((a) => a.close()));
  });

  it('routes each request to the installation with the same prefix only', async () => {
    expect(await (await client(`a${suffix}.`)).request(Echo, { text: 'hi' })).toEqual({
      text: 'hi',
      from: 'a',
    });
    expect(await (await client(`b${suffix}.`)).request(Echo, { text: 'yo' })).toEqual({
      text: 'yo',
      from: 'b',
    });
  });

  it('reports UNAVAILABLE when no installation answers the prefix', async () => {
    await expect(
      (await client(`nobody${suffix}.`)).request(Echo, { text: 'x' }, { timeoutMs: 500 }),
    ).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('gives each of many concurrent requests its own reply', async () => {
    const rpc = await client(`a${suffix}.`);
    const texts = Array.from({ length: 50 }, (_, i) => `m${i}`);
    const replies = await Promise.all(texts.map((text) => rpc.request(Echo, { text })));
    expect(replies.map((r) => r.text)).toEqual(texts);
  });

  it('reports UNAVAILABLE when the handler fails outside the envelope', async () => {
    await expect((await client(`a${suffix}.`)).request(Fail, {})).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
  });

  it('refuses to send a request that breaks the subject schema', async () => {
    await expect((await client(`a${suffix}.`)).request(Echo, { text: 42 } as never)).rejects.toThrow();
  });
});
