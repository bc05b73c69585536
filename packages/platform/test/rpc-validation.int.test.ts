import { Controller, Module, UseInterceptors, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, rpcSubject, type RpcParsedRequest } from '@agentry/contracts';
import { z } from 'zod';
import { createLogger, LOGGER, PrefixedClientNats, PrefixedServerNats, RpcBody, RpcClient, RpcEnvelopeInterceptor, RpcHandler } from '../src/index.js';

const NATS = 'nats://127.0.0.1:4222';
const Rename = rpcSubject(
  'test.validation.rename',
  z.object({ id: z.string().startsWith('agent_'), body: z.object({ name: z.string().min(1) }) }),
  z.object({ id: z.string(), name: z.string() }),
);

@Controller()
@UseInterceptors(RpcEnvelopeInterceptor)
class RenameHandler {
  @RpcHandler(Rename)
  rename(@RpcBody(Rename) req: RpcParsedRequest<typeof Rename>) {
    return { id: req.id, name: req.body.name };
  }
}

@Module({
  controllers: [RenameHandler],
  providers: [{ provide: LOGGER, useValue: createLogger('validation-test', 'silent') }, RpcEnvelopeInterceptor],
})
class RenameModule {}

describe('a malformed RPC request', () => {
  const prefix = `valid${Math.random().toString(36).slice(2, 8)}.`;
  let app: INestMicroservice;
  let rpc: RpcClient;
  let raw: NatsConnection;

  beforeAll(async () => {
    app = await NestFactory.createMicroservice(RenameModule, {
      strategy: new PrefixedServerNats({ servers: [NATS], queue: 'validation' }, prefix),
      logger: false,
    });
    await app.listen();
    const proxy = new PrefixedClientNats({ servers: [NATS] }, prefix);
    await proxy.connect();
    rpc = new RpcClient(proxy as never, 2_000);
    raw = await connect({ servers: [NATS] });
  });
  afterAll(async () => {
    await rpc?.close();
    await app?.close();
    await raw?.close();
  });

  it('is answered by the handler with a typed INVALID_REQUEST naming every wrong field', async () => {
    // Straight onto the bus, past the client's own check: what an older or buggy caller would send.
    const message = JSON.stringify({ pattern: Rename.subject, data: { id: 'sesn_1', body: { name: '' } }, id: 'bad-1' });
    const reply = await raw.request(prefix + Rename.subject, new TextEncoder().encode(message), { timeout: 2_000 });
    const { response } = reply.json<{ response: { ok: boolean; error: { code: string; message: string; details: unknown } } }>();
    expect(response.ok).toBe(false);
    expect(response.error.code).toBe('INVALID_REQUEST');
    expect(response.error.message).toMatch(/^id: .*agent_.*; body\.name: .*1 character/);
    expect(response.error.details).toMatchObject({
      subject: Rename.subject,
      issues: [{ path: 'id' }, { path: 'body.name' }],
    });
  });

  it('is refused by the client as a typed INVALID_REQUEST before it travels, not a raw schema error', async () => {
    const failure = await rpc.request(Rename, { id: 'agent_1', body: {} } as never).catch((error: unknown) => error);
    expect(AppError.is(failure, 'INVALID_REQUEST')).toBe(true);
    expect((failure as AppError).httpStatus).toBe(400);
    expect((failure as AppError).message).toMatch(/^body\.name: /);
  });

  it('still answers a well-formed request', async () => {
    await expect(rpc.request(Rename, { id: 'agent_1', body: { name: 'Ada' } })).resolves.toEqual({ id: 'agent_1', name: 'Ada' });
  });
});
