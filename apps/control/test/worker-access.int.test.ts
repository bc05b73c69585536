import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppError,
  ControlSubjects as R,
  ControlSubjects,
  ControlSubjects as S,
  SkillFileSubjects,
  WorkerAuthSubjects,
} from '@agentry/contracts';
import { startControl, type ControlTestApp } from './control-test-app.js';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const unauthenticated = (message: RegExp) => (e: unknown) =>
  AppError.is(e, 'UNAUTHENTICATED') && message.test((e as Error).message);

describe('control: environment keys and skill files for self-hosted workers', () => {
  let control: ControlTestApp;
  beforeAll(async () => {
    control = await startControl();
  });
  afterAll(async () => {
    await control?.close();
  });

  const selfHosted = (name: string) =>
    control.rpc.request(S.createEnvironment, {
      actor: control.admin,
      body: { name, config: { type: 'self_hosted' } },
    });
  const newKey = (id: string, revokeExisting = false) =>
    control.rpc.request(R.createEnvironmentKey, {
      actor: control.admin,
      id,
      body: { revoke_existing: revokeExisting },
    });
  const verify = (key: string) => control.rpc.request(WorkerAuthSubjects.verifyEnvironmentKey, { key });

  it("verifies a key as its environment's principal and records when it was used", async () => {
    const environment = await selfHosted('laptop');
    const key = await newKey(environment.id);
    expect(await verify(key.key!)).toEqual({
      tenantId: control.admin.tenantId,
      namespaceId: control.admin.namespaceId,
      environmentId: environment.id,
      workId: null,
      sessionId: null,
    });
    await expect
      .poll(
        async () =>
          (await control.db.prisma.environmentKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt,
      )
      .not.toBeNull();
  });

  it('refuses unknown, revoked and rotated-out keys, and API-key-shaped strings, as UNAUTHENTICATED', async () => {
    const environment = await selfHosted('rotating');
    const first = await newKey(environment.id);
    const second = await newKey(environment.id);
    await control.rpc.request(R.revokeEnvironmentKey, {
      actor: control.admin,
      id: environment.id,
      keyId: first.id,
    });
    await expect(verify(first.key!)).rejects.toSatisfy(unauthenticated(/Invalid or revoked environment key/));
    expect((await verify(second.key!)).environmentId).toBe(environment.id);

    const third = await newKey(environment.id, true);
    await expect(verify(second.key!)).rejects.toSatisfy(unauthenticated(/revoked/));
    expect((await verify(third.key!)).environmentId).toBe(environment.id);

    await expect(verify('agentry_envkey_not-a-real-key')).rejects.toSatisfy(unauthenticated(/Invalid/));
    await expect(verify('agk_something')).rejects.toSatisfy(unauthenticated(/Invalid/));
  });

  it('refuses the keys of an archived environment', async () => {
    const environment = await selfHosted('retired');
    const key = await newKey(environment.id);
    await control.rpc.request(R.archiveEnvironment, { actor: control.admin, id: environment.id });
    await expect(verify(key.key!)).rejects.toSatisfy(
      unauthenticated(new RegExp(`${environment.id} is archived`)),
    );
  });

  it('serves a skill version with SKILL.md and its files, by id, number or latest, in the owner namespace only', async () => {
    const md = '---\nname: csv-report\ndescription: Formats CSV reports\n---\nUse scripts/format.py.\n';
    const skill = await control.rpc.request(ControlSubjects.createSkill, {
      actor: control.admin,
      body: {
        files: [
          { path: 'csv-report/SKILL.md', content_base64: b64(md) },
          { path: 'csv-report/scripts/format.py', content_base64: b64('print(1)\n') },
        ],
      },
    });
    const latest = await control.rpc.request(SkillFileSubjects.getVersionFiles, {
      actor: control.admin,
      skillId: skill.id,
      version: 'latest',
    });
    expect(latest).toEqual({
      skill_id: skill.id,
      version_id: skill.latest_version_id,
      version: 1,
      name: 'csv-report',
      description: 'Formats CSV reports',
      skill_md: md,
      files: { 'scripts/format.py': { encoding: 'base64', content: b64('print(1)\n') } },
    });
    for (const version of ['1', skill.latest_version_id]) {
      expect(
        await control.rpc.request(SkillFileSubjects.getVersionFiles, {
          actor: control.admin,
          skillId: skill.id,
          version,
        }),
      ).toEqual(latest);
    }
    expect(
      (
        await control.rpc.request(ControlSubjects.getSkillVersion, {
          actor: control.admin,
          skillId: skill.id,
          version: 'latest',
        })
      ).id,
    ).toBe(skill.latest_version_id);
    const stranger = { ...control.admin, namespaceId: 'ns_someone_else' };
    await expect(
      control.rpc.request(SkillFileSubjects.getVersionFiles, {
        actor: stranger,
        skillId: skill.id,
        version: 'latest',
      }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'NOT_FOUND'));
    await expect(
      control.rpc.request(SkillFileSubjects.getVersionFiles, {
        actor: control.admin,
        skillId: skill.id,
        version: '7',
      }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'NOT_FOUND'));
  });
});
