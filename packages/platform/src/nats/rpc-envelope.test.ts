import { describe, expect, it } from 'vitest';
import { AppError } from '@agentry/contracts';
import { toErrorBody, unwrapEnvelope } from './rpc-envelope.js';

describe('rpc envelope', () => {
  it('returns the data of a successful reply', () => {
    expect(unwrapEnvelope({ ok: true, data: { id: 'agent_1' } }, 'control.agent.get')).toEqual({
      id: 'agent_1',
    });
  });

  it('turns an error reply back into the same AppError', () => {
    const original = new AppError('VERSION_CONFLICT', 'stale version 2', { details: { current: 3 } });
    const reply = { ok: false, error: toErrorBody(original) };
    expect(() => unwrapEnvelope(reply, 'control.agent.update')).toThrow(original.message);
    try {
      unwrapEnvelope(reply, 'control.agent.update');
    } catch (error) {
      expect(AppError.is(error, 'VERSION_CONFLICT')).toBe(true);
      expect((error as AppError).details).toEqual({ current: 3 });
    }
  });

  it('never leaks an unexpected error message across the wire', () => {
    expect(toErrorBody(new Error('password=hunter2 in a stack'))).toEqual({
      code: 'INTERNAL',
      message: 'Internal error',
      retryable: false,
    });
  });

  it('rejects a malformed reply as INTERNAL', () => {
    expect(() => unwrapEnvelope('nonsense', 'x.y')).toThrow(/Malformed reply/);
  });
});

describe('rpc envelope while the database is away', () => {
  it('reports an unreachable database as a retryable UNAVAILABLE, not INTERNAL', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(toErrorBody(refused)).toMatchObject({ code: 'UNAVAILABLE', retryable: true });
    const prisma = Object.assign(new Error('x'), {
      code: 'P2010',
      meta: { driverAdapterError: { cause: { kind: 'DatabaseNotReachable' } } },
    });
    expect(toErrorBody(prisma)).toMatchObject({ code: 'UNAVAILABLE', retryable: true });
    const terminated = new Error('wrapper', { cause: new Error('Connection terminated unexpectedly') });
    expect(toErrorBody(terminated)).toMatchObject({ code: 'UNAVAILABLE' });
    expect(toErrorBody(Object.assign(new Error('syntax'), { code: '42601' }))).toMatchObject({
      code: 'INTERNAL',
    });
  });
});
