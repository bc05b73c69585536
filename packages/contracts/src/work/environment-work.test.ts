import { describe, expect, it } from 'vitest';
import type {
  BetaSelfHostedWork,
  BetaWorkSecret,
} from '@anthropic-ai/sdk/resources/beta/environments/work.js';
import {
  HeartbeatWorkParamsSchema,
  PollWorkParamsSchema,
  WorkSchema,
  decodeWorkSecret,
  encodeWorkSecret,
} from './environment-work.js';

describe('self-hosted work', () => {
  it('accepts an SDK-typed work item', () => {
    const work: BetaSelfHostedWork = {
      id: 'work_1',
      type: 'work',
      environment_id: 'env_1',
      state: 'starting',
      data: { type: 'session', id: 'sesn_1' },
      secret: 'eyJ9',
      metadata: {},
      created_at: '2026-11-30T12:00:00.000Z',
      acknowledged_at: null,
      started_at: null,
      latest_heartbeat_at: null,
      stop_requested_at: null,
      stopped_at: null,
    };
    expect(WorkSchema.parse(work)).toEqual(work);
  });

  it('round-trips the secret as base64url JSON the SDK worker can decode', () => {
    const secret: BetaWorkSecret = { sessions_token: 'tok/+é', api_base_url: 'http://127.0.0.1:8080' };
    const encoded = encodeWorkSecret(secret);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'))).toEqual(secret);
    expect(decodeWorkSecret(encoded)).toEqual(secret);
    expect(() => decodeWorkSecret(encodeWorkSecret({ api_base_url: 'x' } as never))).toThrow();
  });

  it('bounds the long poll below one second and reads heartbeat preconditions', () => {
    expect(PollWorkParamsSchema.parse({ block_ms: '999', reclaim_older_than_ms: '5000' })).toEqual({
      block_ms: 999,
      reclaim_older_than_ms: 5000,
    });
    expect(PollWorkParamsSchema.safeParse({ block_ms: '1000' }).error!.issues[0]!.path).toEqual(['block_ms']);
    expect(
      HeartbeatWorkParamsSchema.parse({ expected_last_heartbeat: 'NO_HEARTBEAT' }).expected_last_heartbeat,
    ).toBe('NO_HEARTBEAT');
    expect(HeartbeatWorkParamsSchema.safeParse({ expected_last_heartbeat: 'yesterday' }).success).toBe(false);
  });
});
