import { describe, expect, it } from 'vitest';
import { keepingFailures, RpcCallContext } from './rpc-answer.js';

describe('keepingFailures', () => {
  const double = keepingFailures((n: unknown, _ctx?: RpcCallContext) => {
    if (n === 0) throw new Error('zero');
    return (n as number) * 2;
  });

  it('called directly, returns and throws as the method does', () => {
    expect(double(2)).toBe(4);
    expect(() => double(0)).toThrow('zero');
  });

  it('called with the server context, leaves the error there instead of throwing', async () => {
    const ctx = new RpcCallContext(['s', undefined as never]);
    await expect(double(0, ctx)).resolves.toBeUndefined();
    expect((ctx.failure?.error as Error).message).toBe('zero');
    const ok = new RpcCallContext(['s', undefined as never]);
    await expect(double(3, ok)).resolves.toBe(6);
    expect(ok.failure).toBeUndefined();
  });
});
