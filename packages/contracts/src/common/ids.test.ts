import { describe, expect, it } from 'vitest';
import { AgentIdSchema, MemoryIdSchema, SessionIdSchema, hasIdPrefix, idTimestamp, newId } from './ids.js';

describe('newId', () => {
  it('makes prefixed 26-character bodies in Crockford base32', () => {
    const id = newId('sesn_');
    expect(id).toMatch(/^sesn_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('sorts ids in creation order, also within one millisecond', () => {
    const ids = Array.from({ length: 500 }, () => newId('sevt_'));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('encodes the creation time', () => {
    const before = Date.now();
    const ms = idTimestamp(newId('agent_'));
    expect(ms).not.toBeNull();
    expect(ms!).toBeGreaterThanOrEqual(before);
    expect(ms!).toBeLessThanOrEqual(Date.now());
    expect(idTimestamp('agent_011CZkYpogX7uDKUyvBTophP')).toBeNull();
  });

  it('stamps the time it is given, so a caller with its own clock gets ids of that clock', () => {
    const future = Date.UTC(2100, 0, 1);
    const id = newId('sevt_', future);
    expect(idTimestamp(id)).toBe(future);
    expect(newId('sevt_', future + 1) > id).toBe(true);
  });

  it('covers agent shares and audit entries, which used to build their ids by hand', () => {
    expect(newId('share_')).toMatch(/^share_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(newId('audit_')).toMatch(/^audit_[0-9A-HJKMNP-TV-Z]{26}$/);
  });
});

describe('id schemas', () => {
  it('accept our ids and CMA-style ids with the right prefix', () => {
    expect(SessionIdSchema.parse('sesn_011CZkZAtmR3yMPDzynEDxu7')).toBe('sesn_011CZkZAtmR3yMPDzynEDxu7');
    expect(AgentIdSchema.safeParse(newId('agent_')).success).toBe(true);
  });

  it('reject a wrong prefix with a message naming the expected one', () => {
    const result = AgentIdSchema.safeParse('env_011CZkZAtmR3yMPDzynEDxu7');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain('agent_');
  });

  it('does not confuse prefixes that share a start', () => {
    expect(MemoryIdSchema.safeParse('memstore_01ABC').success).toBe(false);
    expect(hasIdPrefix('envkey_01ABC', 'env_')).toBe(false);
    expect(hasIdPrefix('agent_', 'agent_')).toBe(false);
  });
});
