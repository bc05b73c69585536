import { describe, expect, it } from 'vitest';
import { agentWorkspaceRoot } from './agent-workspace-root.js';
import { scopeRootKey } from './isolation-scope.js';

describe('agentWorkspaceRoot', () => {
  it('is the AGENT scope root every session of the agent mounts', () => {
    const root = agentWorkspaceRoot('ten_1', 'agent_1');
    expect(root).toBe(scopeRootKey('AGENT', { tenantId: 'ten_1', agentId: 'agent_1', sessionId: 'sesn_9' }));
    expect(() => agentWorkspaceRoot('ten_1', '../agent_2')).toThrowError(
      expect.objectContaining({ code: 'INVALID_REQUEST' }),
    );
  });
});
