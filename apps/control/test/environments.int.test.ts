import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, ControlSubjects as S, type Environment } from '@agentry/contracts';
import { startControl, type ControlTestApp } from './control-test-app.js';
import { unchecked } from './unchecked-subject.js';

describe('control: environment lifecycle and keys', () => {
  let control: ControlTestApp;
  beforeAll(async () => {
    control = await startControl({}, { dataplane: true });
  });
  afterAll(async () => {
    await control?.close();
  });

  const create = (
    name: string,
    config: { type: 'cloud' | 'self_hosted' | 'local' | 'remote' } = { type: 'cloud' },
  ): Promise<Environment> =>
    control.rpc.request(S.createEnvironment, {
      actor: control.admin,
      body: { name, config, metadata: { tier: 'dev' } },
    });
  const sessionOn = async (environmentId: string) => {
    const agent = await control.rpc.request(S.createAgent, {
      actor: control.admin,
      body: { name: 'runner', model: 'scripted' },
    });
    return control.rpc.request(S.createSession, {
      actor: control.admin,
      body: { agent: agent.id, environment_id: environmentId },
    });
  };

  it('stores each config type under its storage type', async () => {
    for (const type of ['cloud', 'self_hosted', 'local', 'remote'] as const) {
      const env = await create(`t-${type}`, { type });
      expect(env.config.type).toBe(type);
      const row = await control.db.prisma.environment.findUniqueOrThrow({ where: { id: env.id } });
      expect(row.type).toBe(type === 'cloud' ? 'sandbox' : type);
    }
  });

  it('updates name, config and metadata but never the config type', async () => {
    const env = await create('mutable');
    const updated = await control.rpc.request(S.updateEnvironment, {
      actor: control.admin,
      id: env.id,
      body: {
        name: 'renamed',
        config: { type: 'cloud', networking: { type: 'limited', allowed_hosts: ['example.com'] } },
        metadata: { tier: null, owner: 'ops' },
      },
    });
    expect(updated).toMatchObject({ name: 'renamed', metadata: { owner: 'ops' } });
    expect(updated.config).toMatchObject({
      type: 'cloud',
      networking: { type: 'limited', allowed_hosts: ['example.com'] },
    });
    await expect(
      control.rpc.request(S.updateEnvironment, {
        actor: control.admin,
        id: env.id,
        body: { config: { type: 'local' } },
      }),
    ).rejects.toSatisfy(
      (e) => AppError.is(e, 'INVALID_REQUEST') && /config\.type/.test((e as Error).message),
    );
    expect(await control.rpc.request(S.getEnvironment, { actor: control.admin, id: env.id })).toEqual(
      updated,
    );
  });

  it.each([
    ['a wrong type', { name: 7 }, /name/],
    ['an unknown field', { colour: 'red' }, /colour/],
    ['an over-long description', { description: 'd'.repeat(2049) }, /description/],
  ])('refuses %s with INVALID_REQUEST and changes nothing', async (_label, body, field) => {
    const env = await create('guarded');
    await expect(
      control.rpc.request(unchecked(S.updateEnvironment), { actor: control.admin, id: env.id, body }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'INVALID_REQUEST') && field.test((e as Error).message));
    expect(await control.rpc.request(S.getEnvironment, { actor: control.admin, id: env.id })).toEqual(env);
  });

  it('lists with paging, hides archived ones unless asked, and refuses sessions on them', async () => {
    const a = await create('list-a');
    const b = await create('list-b');
    const first = await control.rpc.request(S.listEnvironments, {
      actor: control.admin,
      query: { limit: 1 },
    });
    expect(first.data.map((e) => e.id)).toEqual([b.id]);
    const second = await control.rpc.request(S.listEnvironments, {
      actor: control.admin,
      query: { limit: 1, page: first.next_page },
    });
    expect(second.data.map((e) => e.id)).toEqual([a.id]);

    const archived = await control.rpc.request(S.archiveEnvironment, { actor: control.admin, id: a.id });
    expect(archived.archived_at).not.toBeNull();
    const live = await control.rpc.request(S.listEnvironments, {
      actor: control.admin,
      query: { limit: 1000 },
    });
    expect(live.data.map((e) => e.id)).not.toContain(a.id);
    const all = await control.rpc.request(S.listEnvironments, {
      actor: control.admin,
      query: { limit: 1000, include_archived: true },
    });
    expect(all.data.map((e) => e.id)).toContain(a.id);
    await expect(sessionOn(a.id)).rejects.toSatisfy(
      (e) => AppError.is(e, 'INVALID_REQUEST') && /archived/.test((e as Error).message),
    );
  });

  it('refuses to delete while a live session uses it, and deletes once that session is archived', async () => {
    const env = await create('busy');
    const session = await sessionOn(env.id);
    await expect(
      control.rpc.request(S.deleteEnvironment, { actor: control.admin, id: env.id }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'CONFLICT') && /1 session/.test((e as Error).message));
    expect(await control.rpc.request(S.getEnvironment, { actor: control.admin, id: env.id })).toMatchObject({
      id: env.id,
    });

    await control.rpc.request(S.archiveSession, { actor: control.admin, id: session.id });
    const deleted = await control.rpc.request(S.deleteEnvironment, { actor: control.admin, id: env.id });
    expect(deleted).toEqual({ id: env.id, type: 'environment_deleted' });
    await expect(
      control.rpc.request(S.getEnvironment, { actor: control.admin, id: env.id }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'NOT_FOUND'));
  });

  it('shows a key once, stores only its hash, rotates and revokes', async () => {
    const env = await create('workers', { type: 'self_hosted' });
    const first = await control.rpc.request(S.createEnvironmentKey, {
      actor: control.admin,
      id: env.id,
      body: {},
    });
    expect(first.key).toMatch(/^agentry_envkey_/);
    const stored = await control.db.prisma.environmentKey.findUniqueOrThrow({ where: { id: first.id } });
    expect(stored.keyHash).toBe(
      createHash('sha256')
        .update(first.key ?? '')
        .digest('hex'),
    );
    expect(JSON.stringify(stored)).not.toContain(first.key);

    const rotated = await control.rpc.request(S.createEnvironmentKey, {
      actor: control.admin,
      id: env.id,
      body: { revoke_existing: true },
    });
    const listed = await control.rpc.request(S.listEnvironmentKeys, { actor: control.admin, id: env.id });
    expect(listed.data.every((k) => k.key === undefined)).toBe(true);
    expect(listed.data.find((k) => k.id === first.id)?.revoked_at).not.toBeNull();
    expect(listed.data.find((k) => k.id === rotated.id)?.revoked_at).toBeNull();

    const revoked = await control.rpc.request(S.revokeEnvironmentKey, {
      actor: control.admin,
      id: env.id,
      keyId: rotated.id,
    });
    expect(revoked.revoked_at).not.toBeNull();
    await expect(
      control.rpc.request(S.revokeEnvironmentKey, {
        actor: control.admin,
        id: env.id,
        keyId: 'envkey_missing',
      }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'NOT_FOUND'));
  });
});
