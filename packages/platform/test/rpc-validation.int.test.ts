import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError, rpcSubject, type RpcParsedRequest } from '@agentry/contracts';
import { z } from 'zod';
import {
  createLogger,
  LOGGER,
  PrefixedClientNats,
  PrefixedServerNats,
  RpcClient,
  RpcEnvelopeInterceptor,
  RpcHandler,
} from '../src/index.js';

const NATS = 'nats://127.0.0.1:4222';
const Rename = rpcSubject(
  'test.validation.rename',
  z.object({ id: z.string().startsWith('agent_'), body: z.object({ name: z.string().min(1) }) }),
  z.object({ id: z.string(), name: z.string() }),
);
/** A handler whose reply drifted from its schema: `name` went missing and `id` became a number. */
const Drifted = rpcSubject(
  'test.validation.drifted',
  z.object({ v: z.literal(1) }),
  z.object({ id: z.string(), name: z.string() }),
);

/** Rename, checked only where it is answered. */
const RenameChecked = rpcSubject(
  'test.validation.rename-checked',
  Rename.request,
  Rename.response,
  undefined,
  { checkedAtHandler: true },
);

const Fails = rpcSubject(
  'test.validation.fails',
  z.object({ how: z.enum(['typed', 'crash']) }),
  z.object({}),
);

let renamedChecked = 0;

@Controller()
class RenameHandler {
  @RpcHandler(Fails)
  fails(req: RpcParsedRequest<typeof Fails>) {
    if (req.how === 'typed') throw new AppError('NOT_FOUND', 'No agent agent_9');
    throw new Error('pool exhausted, password=hunter2');
  }

  @RpcHandler(Rename)
  rename(req: RpcParsedRequest<typeof Rename>) {
    return { id: req.id, name: req.body.name, note: 'not in the reply schema' };
  }

  @RpcHandler(RenameChecked)
  renameChecked(req: RpcParsedRequest<typeof RenameChecked>) {
    renamedChecked += 1;
    return { id: req.id, name: req.body.name };
  }

  @RpcHandler(Drifted)
  drifted() {
    return { id: 42, secret: 'sk-not-for-logs' };
  }
}

@Module({
  controllers: [RenameHandler],
  providers: [
    { provide: LOGGER, useValue: createLogger('validation-test', 'silent') },
    RpcEnvelopeInterceptor,
  ],
})
class RenameModule {}

describe('catalog schemas on a real bus', () => {
  const prefix = `valid${Math.random().toString(36).slice(2, 8)}.`;
  let app: INestMicroservice;
  let rpc: RpcClient;
  let raw: NatsConnection;
  const logged = vi.fn();
  const serverLog = { warn: vi.fn(), error: vi.fn() };

  beforeAll(async () => {
    app = await NestFactory.createMicroservice(RenameModule, {
      strategy: new PrefixedServerNats({ servers: [NATS], queue: 'validation' }, prefix, serverLog as never),
      logger: false,
    });
    await app.listen();
    const proxy = new PrefixedClientNats({ servers: [NATS] }, prefix);
    await proxy.connect();
    rpc = new RpcClient(proxy, 2_000, { error: logged } as never);
    raw = await connect({ servers: [NATS] });
  });
  afterAll(async () => {
    await rpc?.close();
    await app?.close();
    await raw?.close();
  });

  it('a malformed request is answered by the handler with a typed INVALID_REQUEST naming every wrong field', async () => {
    // Straight onto the bus, past the client's own check: what an older or buggy caller would send.
    const message = JSON.stringify({
      pattern: Rename.subject,
      data: { id: 'sesn_1', body: { name: '' } },
      id: 'bad-1',
    });
    const reply = await raw.request(prefix + Rename.subject, new TextEncoder().encode(message), {
      timeout: 2_000,
    });
    const { response } = reply.json<{
      response: { ok: boolean; error: { code: string; message: string; details: unknown } };
    }>();
    expect(response.ok).toBe(false);
    expect(response.error.code).toBe('INVALID_REQUEST');
    expect(response.error.message).toMatch(/^id: .*agent_.*; body\.name: .*1 character/);
    expect(response.error.details).toMatchObject({
      subject: Rename.subject,
      issues: [{ path: 'id' }, { path: 'body.name' }],
    });
  });

  it('a malformed request is refused by the client as a typed INVALID_REQUEST before it travels, not a raw schema error', async () => {
    const failure = await rpc
      .request(Rename, { id: 'agent_1', body: {} } as never)
      .catch((error: unknown) => error);
    expect(AppError.is(failure, 'INVALID_REQUEST')).toBe(true);
    expect((failure as AppError).httpStatus).toBe(400);
    expect((failure as AppError).message).toMatch(/^body\.name: /);
  });

  it('a request of a subject checked where it is answered is refused there with the same typed INVALID_REQUEST', async () => {
    const failure = await rpc
      .request(RenameChecked, { id: 'agent_1', body: {} } as never)
      .catch((error: unknown) => error);
    expect(AppError.is(failure, 'INVALID_REQUEST')).toBe(true);
    expect((failure as AppError).httpStatus).toBe(400);
    expect((failure as AppError).message).toMatch(/^body\.name: /);
    expect((failure as AppError).details).toMatchObject({ subject: RenameChecked.subject });
    expect(renamedChecked).toBe(0);
    await expect(rpc.request(RenameChecked, { id: 'agent_1', body: { name: 'Ada' } })).resolves.toEqual({
      id: 'agent_1',
      name: 'Ada',
    });
    expect(renamedChecked).toBe(1);
  });

  it('a well-formed request is answered with the reply as sent', async () => {
    // A field the reply schema does not list yet reaches the caller instead of being dropped.
    await expect(rpc.request(Rename, { id: 'agent_1', body: { name: 'Ada' } })).resolves.toEqual({
      id: 'agent_1',
      name: 'Ada',
      note: 'not in the reply schema',
    });
  });

  it('a reply that does not match its schema is a BAD_REPLY (502) naming the subject, logged without the reply', async () => {
    const failure = await rpc.request(Drifted, { v: 1 }).catch((error: unknown) => error);
    expect(AppError.is(failure, 'BAD_REPLY')).toBe(true);
    expect((failure as AppError).httpStatus).toBe(502);
    expect((failure as AppError).message).toContain(Drifted.subject);
    expect((failure as AppError).details).toMatchObject({ issues: [{ path: 'id' }, { path: 'name' }] });
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({
        subject: Drifted.subject,
        issues: [expect.objectContaining({ path: 'id' }), expect.objectContaining({ path: 'name' })],
      }),
      'rpc reply does not match its schema',
    );
    expect(JSON.stringify(logged.mock.calls)).not.toContain('sk-not-for-logs');
  });

  it("a handler's own error reaches the caller typed; a crash is INTERNAL, logged, and its message stays home", async () => {
    const typed = await rpc.request(Fails, { how: 'typed' }).catch((error: unknown) => error);
    expect(AppError.is(typed, 'NOT_FOUND')).toBe(true);
    expect((typed as AppError).message).toBe('No agent agent_9');
    expect(serverLog.warn).toHaveBeenCalledWith(
      expect.objectContaining({ subject: prefix + Fails.subject, code: 'NOT_FOUND' }),
      'rpc request failed',
    );

    const crash = await rpc.request(Fails, { how: 'crash' }).catch((error: unknown) => error);
    expect(AppError.is(crash, 'INTERNAL')).toBe(true);
    expect((crash as AppError).message).toBe('Internal error');
    expect(serverLog.error).toHaveBeenCalledWith(
      expect.objectContaining({ subject: prefix + Fails.subject }),
      'rpc handler crashed',
    );
  });
});
