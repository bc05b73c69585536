import type { ArgumentsHost } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { rpcSubject } from '@agentry/contracts';
import { createLogger, RpcClient } from '@agentry/platform';
import { z } from 'zod';
import { HttpErrorFilter } from './http-error.filter.js';

const GetThing = rpcSubject(
  'control.thing.get',
  z.object({ id: z.string().startsWith('thing_') }),
  z.object({ id: z.string() }),
);

/** The filter's answer to `exception`, as a client would receive it. */
function answer(exception: unknown): {
  status: number;
  body: { error: { type: string; message: string; details?: unknown } };
} {
  const sent: { status: number; body: unknown } = { status: 0, body: undefined };
  const reply = {
    raw: { headersSent: false },
    type: () => reply,
    header: () => reply,
    status: (code: number) => ({ send: (body: unknown) => Object.assign(sent, { status: code, body }) }),
  };
  const host = {
    switchToHttp: () => ({
      getResponse: () => reply,
      getRequest: () => ({ method: 'GET', url: '/v1/things/x' }),
    }),
  };
  new HttpErrorFilter(createLogger('filter-test', 'silent')).catch(
    exception,
    host as unknown as ArgumentsHost,
  );
  return sent as never;
}

describe('a request a service would refuse', () => {
  it('reaches the client as a 400 naming the field, not a 500', async () => {
    const neverSent = {
      send: () => {
        throw new Error('a refused request must not travel');
      },
      close: async () => {},
    };
    const rpc = new RpcClient(neverSent as never, 1_000);
    const failure = await rpc.request(GetThing, { id: 'other_1' }).catch((error: unknown) => error);
    const { status, body } = answer(failure);
    expect(status).toBe(400);
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toMatch(/^id: .*thing_/);
    expect(body.error.details).toMatchObject({ issues: [{ path: 'id' }] });
  });
});
