import { describe, expect, it } from 'vitest';
import { effectiveScope, scopeRootDir, scopeRootKey } from './isolation-scope.js';

const ctx = { tenantId: 'ten_1', agentId: 'agent_1', sessionId: 'sesn_1', userId: 'user_1' };

describe('isolation scopes', () => {
  it('maps each scope to its own root', () => {
    expect(scopeRootKey('SESSION', ctx)).toBe('tenants/ten_1/agents/agent_1/sessions/sesn_1');
    expect(scopeRootKey('USER', ctx)).toBe('tenants/ten_1/agents/agent_1/users/user_1');
    expect(scopeRootKey('AGENT', ctx)).toBe('tenants/ten_1/agents/agent_1/shared');
    expect(scopeRootKey('GLOBAL', ctx)).toBe('tenants/ten_1/global');
    expect(scopeRootDir('/var/ws', 'GLOBAL', ctx)).toBe('/var/ws/tenants/ten_1/global');
  });

  it('falls back to SESSION when there is no user', () => {
    expect(effectiveScope('USER', { ...ctx, userId: null })).toBe('SESSION');
    expect(effectiveScope(undefined, { ...ctx, userId: undefined })).toBe('SESSION');
    expect(effectiveScope(undefined, ctx)).toBe('USER');
    expect(scopeRootKey('USER', { ...ctx, userId: '' })).toBe('tenants/ten_1/agents/agent_1/sessions/sesn_1');
  });

  it('keeps tenants and sessions apart', () => {
    expect(scopeRootKey('GLOBAL', ctx)).not.toBe(scopeRootKey('GLOBAL', { ...ctx, tenantId: 'ten_2' }));
    expect(scopeRootKey('SESSION', ctx)).not.toBe(scopeRootKey('SESSION', { ...ctx, sessionId: 'sesn_2' }));
  });

  it('refuses ids that could climb out of the scope', () => {
    for (const bad of ['..', '../x', 'a/b', '', '.hidden', 'x\u0000', 'a\\b']) {
      expect(() => scopeRootKey('SESSION', { ...ctx, sessionId: bad })).toThrowError(
        expect.objectContaining({ code: 'INVALID_REQUEST' }),
      );
    }
    expect(() => scopeRootKey('GLOBAL', { ...ctx, tenantId: '../other' })).toThrowError(
      expect.objectContaining({ code: 'INVALID_REQUEST' }),
    );
  });
});
