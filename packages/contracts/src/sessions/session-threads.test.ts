import { describe, expect, it } from 'vitest';
import type { BetaManagedAgentsSessionThread } from '@anthropic-ai/sdk/resources/beta/sessions/threads/threads.js';
import { SessionThreadSchema } from './session-threads.js';

describe('session threads', () => {
  it('accept an SDK-typed thread', () => {
    const thread: BetaManagedAgentsSessionThread = {
      id: 'sthr_011CZkZVWa6oJjw1rgXZpnBt',
      type: 'session_thread',
      session_id: 'sesn_1',
      parent_thread_id: null,
      agent: { type: 'advisor', model: 'claude-opus-5-5' },
      status: 'idle',
      stats: { active_seconds: 1 },
      usage: null,
      workflow_run_id: null,
      created_at: '2026-11-30T12:00:00.000Z',
      updated_at: '2026-11-30T12:00:00.000Z',
      archived_at: null,
    };
    expect(SessionThreadSchema.parse(thread)).toEqual(thread);
  });
});
