import { describe, expect, it } from 'vitest';
import {
  AppError,
  ControlSubjects,
  WorkSubjects,
  WorkerAuthSubjects,
  type Actor,
  type WorkPrincipal,
} from '@agentry/contracts';
import type { RpcClient } from '@agentry/platform';
import { workerCredentialOf } from './worker-credential.js';
import { WorkerCredentialResolver, type WorkerRequest } from './worker-credential.resolver.js';
import type { WorkerRoutePolicy } from './worker-route.decorator.js';

const ENV_KEY = 'agentry_envkey_abc';
const TOKEN = 'agentry_worktok_xyz';
const KEY_PRINCIPAL: WorkPrincipal = {
  tenantId: 't1',
  namespaceId: 'ns1',
  environmentId: 'env_a',
  workId: null,
  sessionId: null,
};
const TOKEN_PRINCIPAL: WorkPrincipal = { ...KEY_PRINCIPAL, workId: 'work_1', sessionId: 'sesn_1' };
const USER: Actor = { tenantId: 't1', namespaceId: 'ns1', userId: 'user_1', apiKeyId: null, role: 'member' };

const WORK_QUEUE: WorkerRoutePolicy = {
  kind: 'work-queue',
  environmentParam: 'id',
  workParam: null,
  users: false,
  sessionsToken: false,
};
const READ_WORK: WorkerRoutePolicy = { ...WORK_QUEUE, users: true };
const ITEM_LEASE: WorkerRoutePolicy = { ...WORK_QUEUE, workParam: 'workId', sessionsToken: true };
const SESSION: WorkerRoutePolicy = { kind: 'session', sessionParam: 'id' };
const SKILL: WorkerRoutePolicy = { kind: 'session-skill', skillParam: 'id' };
const ENV_SESSION: WorkerRoutePolicy = {
  kind: 'environment-session',
  environmentParam: 'id',
  sessionParam: 'sessionId',
};

/** The RpcClient seam: control and the dataplane as the subjects answer them. */
function fakeRpc(sessions: Record<string, { environment_id: string; skills: string[] }> = {}) {
  const calls: string[] = [];
  const answer = (subject: { subject: string }, payload: Record<string, unknown>): unknown => {
    if (subject === WorkerAuthSubjects.verifyEnvironmentKey) {
      if (payload.key !== ENV_KEY)
        throw new AppError('UNAUTHENTICATED', 'Invalid or revoked environment key');
      return KEY_PRINCIPAL;
    }
    if (subject === WorkSubjects.verifySessionsToken) {
      if (payload.token !== TOKEN) throw new AppError('UNAUTHENTICATED', 'Invalid sessions token');
      return TOKEN_PRINCIPAL;
    }
    if (subject === ControlSubjects.getSession) {
      const session = sessions[payload.id as string];
      if (!session) throw new AppError('NOT_FOUND', `Session ${String(payload.id)} not found`);
      const skills = session.skills.map((skill_id) => ({ type: 'custom', skill_id, version: 'latest' }));
      return { id: payload.id, environment_id: session.environment_id, agent: { skills } };
    }
    if (subject === ControlSubjects.getEnvironment) {
      if (payload.id !== 'env_a')
        throw new AppError('NOT_FOUND', `Environment ${String(payload.id)} not found`);
      return { id: 'env_a' };
    }
    throw new Error(`unexpected subject ${subject.subject}`);
  };
  const rpc = {
    request(subject: { subject: string }, payload: Record<string, unknown>) {
      calls.push(subject.subject);
      // Settles as the real client does: what `answer` throws arrives as a rejection.
      return new Promise((resolve) => resolve(answer(subject, payload)));
    },
  };
  return { resolver: new WorkerCredentialResolver(rpc as unknown as RpcClient), calls };
}

const request = (params: Record<string, string>, actor?: Actor): WorkerRequest => ({
  params,
  ...(actor ? { actor } : {}),
});
const key = { kind: 'environment-key' as const, value: ENV_KEY };
const token = { kind: 'sessions-token' as const, value: TOKEN };

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('workerCredentialOf', () => {
  it('tells worker credentials from user tokens and API keys by their prefix, in every header', () => {
    expect(workerCredentialOf({ authorization: `Bearer ${ENV_KEY}` })).toEqual(key);
    expect(workerCredentialOf({ 'x-api-key': ENV_KEY })).toEqual(key);
    expect(workerCredentialOf({ 'x-builder-environment-key': ENV_KEY })).toEqual(key);
    expect(workerCredentialOf({ authorization: `Bearer ${TOKEN}` })).toEqual(token);
    expect(workerCredentialOf({ authorization: 'Bearer eyJhbGciOi.eyJzdWIi.sig' })).toBeNull();
    expect(workerCredentialOf({ 'x-api-key': 'agk_123' })).toBeNull();
    expect(workerCredentialOf({})).toBeNull();
  });

  it('refuses an X-Builder-Environment-Key that is not an environment key', () => {
    expect(() => workerCredentialOf({ 'x-builder-environment-key': 'agk_123' })).toThrow(
      /X-Builder-Environment-Key: not an environment key/,
    );
  });
});

describe('WorkerCredentialResolver.admitWorker', () => {
  it.each([
    ['a route with no worker policy', null, key],
    ['a session route', SESSION, key],
    ['a route for user-readable work only', { ...READ_WORK, sessionsToken: false }, token],
    ['the poll route', WORK_QUEUE, token],
    ['an environment session route', ENV_SESSION, token],
  ])(
    'refuses a worker credential on %s as 401, without looking it up',
    async (_label, policy, credential) => {
      const { resolver, calls } = fakeRpc();
      const error = await refusal(resolver.admitWorker(request({ id: 'env_a' }), credential, policy));
      expect(error.code).toBe('UNAUTHENTICATED');
      expect(error.message).toMatch(
        credential.kind === 'environment-key' ? /environment key only opens/ : /sessions token only reaches/,
      );
      expect(calls).toEqual([]);
    },
  );

  it("admits an environment key on its own environment's queue, as a writer of that namespace", async () => {
    const { resolver } = fakeRpc();
    const req = request({ id: 'env_a' });
    await resolver.admitWorker(req, key, WORK_QUEUE);
    expect(req.workPrincipal).toEqual(KEY_PRINCIPAL);
    expect(req.actor).toEqual({
      tenantId: 't1',
      namespaceId: 'ns1',
      userId: null,
      apiKeyId: null,
      role: 'member',
    });
  });

  it("refuses another environment's key with 403 naming both environments", async () => {
    const { resolver } = fakeRpc();
    const error = await refusal(resolver.admitWorker(request({ id: 'env_b' }), key, WORK_QUEUE));
    expect(error.code).toBe('PERMISSION_DENIED');
    expect(error.message).toBe('This environment key belongs to environment env_a, not env_b');
  });

  it('passes an unknown or revoked key on as 401', async () => {
    const { resolver } = fakeRpc();
    const error = await refusal(
      resolver.admitWorker(
        request({ id: 'env_a' }),
        { kind: 'environment-key', value: 'agentry_envkey_gone' },
        WORK_QUEUE,
      ),
    );
    expect(error.code).toBe('UNAUTHENTICATED');
  });

  it("admits a sessions token on its own item's lease routes only", async () => {
    const { resolver } = fakeRpc();
    const own = request({ id: 'env_a', workId: 'work_1' });
    await resolver.admitWorker(own, token, ITEM_LEASE);
    expect(own.workPrincipal).toEqual(TOKEN_PRINCIPAL);
    const other = await refusal(
      resolver.admitWorker(request({ id: 'env_a', workId: 'work_2' }), token, ITEM_LEASE),
    );
    expect([other.code, other.message]).toEqual(['NOT_FOUND', 'Work item work_2 not found']);
    const elsewhere = await refusal(
      resolver.admitWorker(request({ id: 'env_b', workId: 'work_1' }), token, ITEM_LEASE),
    );
    expect(elsewhere.code).toBe('PERMISSION_DENIED');
  });

  it('admits a sessions token on its own session and answers 404 for any other', async () => {
    const { resolver } = fakeRpc();
    const own = request({ id: 'sesn_1' });
    await resolver.admitWorker(own, token, SESSION);
    expect(own.actor?.namespaceId).toBe('ns1');
    const other = await refusal(resolver.admitWorker(request({ id: 'sesn_2' }), token, SESSION));
    expect([other.code, other.message]).toEqual(['NOT_FOUND', 'Session sesn_2 not found']);
  });

  it("admits a sessions token on the skills of its session's agent only", async () => {
    const { resolver } = fakeRpc({ sesn_1: { environment_id: 'env_a', skills: ['skill_1'] } });
    await resolver.admitWorker(request({ id: 'skill_1' }), token, SKILL);
    const other = await refusal(resolver.admitWorker(request({ id: 'skill_2' }), token, SKILL));
    expect([other.code, other.message]).toEqual(['NOT_FOUND', 'Skill skill_2 not found']);
  });

  it("admits an environment key on a session of its environment, 403 on another environment's, 404 on none", async () => {
    const { resolver } = fakeRpc({
      sesn_1: { environment_id: 'env_a', skills: [] },
      sesn_9: { environment_id: 'env_z', skills: [] },
    });
    await resolver.admitWorker(request({ id: 'env_a', sessionId: 'sesn_1' }), key, ENV_SESSION);
    const foreign = await refusal(
      resolver.admitWorker(request({ id: 'env_a', sessionId: 'sesn_9' }), key, ENV_SESSION),
    );
    expect([foreign.code, foreign.message]).toEqual([
      'PERMISSION_DENIED',
      'Session sesn_9 runs in environment env_z, not env_a',
    ]);
    const missing = await refusal(
      resolver.admitWorker(request({ id: 'env_a', sessionId: 'sesn_404' }), key, ENV_SESSION),
    );
    expect(missing.code).toBe('NOT_FOUND');
  });
});

describe('WorkerCredentialResolver for users and API keys', () => {
  it('refuses them where only the worker may go: 401 with no credential, 403 with one', () => {
    const { resolver } = fakeRpc();
    for (const policy of [WORK_QUEUE, ENV_SESSION]) {
      expect(() => resolver.assertUsersAccepted(policy, false)).toThrow(
        expect.objectContaining({ code: 'UNAUTHENTICATED' }),
      );
      expect(() => resolver.assertUsersAccepted(policy, true)).toThrow(
        expect.objectContaining({ code: 'PERMISSION_DENIED' }),
      );
    }
    for (const policy of [READ_WORK, SESSION, SKILL])
      expect(() => resolver.assertUsersAccepted(policy, true)).not.toThrow();
  });

  it('scopes them to environments of their namespace on work-queue routes', async () => {
    const { resolver } = fakeRpc();
    const own = request({ id: 'env_a' }, USER);
    await resolver.scopeActor(own, READ_WORK);
    expect(own.workPrincipal).toEqual(KEY_PRINCIPAL);
    const error = await refusal(resolver.scopeActor(request({ id: 'env_other' }, USER), READ_WORK));
    expect(error.code).toBe('NOT_FOUND');
  });
});
