import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, ControlSubjects as S } from '@agentry/contracts';
import { startControl, type ControlTestApp } from './control-test-app.js';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const skillMd = (name: string, description = 'Formats CSV reports') =>
  `---\nname: ${name}\ndescription: "${description}"\n---\n# How to\nUse it.\n`;

describe('control: skills and their versions over NATS', () => {
  let control: ControlTestApp;
  beforeAll(async () => {
    control = await startControl();
  });
  afterAll(async () => {
    await control?.close();
  });

  const upload = (md: string, root = 'csv-report') => [
    { path: `${root}/SKILL.md`, content_base64: b64(md) },
    { path: `${root}/scripts/format.py`, content_base64: b64('print(1)\n') },
  ];

  it('creates a skill from SKILL.md front matter and versions it', async () => {
    const skill = await control.rpc.request(S.createSkill, {
      actor: control.admin,
      body: { files: upload(skillMd('csv-report')) },
    });
    expect(skill).toMatchObject({ type: 'skill', display_name: 'csv-report', source: { type: 'custom' } });
    const v1 = await control.rpc.request(S.getSkillVersion, {
      actor: control.admin,
      skillId: skill.id,
      version: skill.latest_version_id,
    });
    expect(v1).toMatchObject({ name: 'csv-report', description: 'Formats CSV reports' });

    const v2 = await control.rpc.request(S.createSkillVersion, {
      actor: control.admin,
      skillId: skill.id,
      body: { files: upload(skillMd('csv-report', 'Formats CSV reports, now with totals')) },
    });
    expect(v2.description).toBe('Formats CSV reports, now with totals');
    expect(
      (await control.rpc.request(S.getSkill, { actor: control.admin, id: skill.id })).latest_version_id,
    ).toBe(v2.id);
    const versions = await control.rpc.request(S.listSkillVersions, {
      actor: control.admin,
      skillId: skill.id,
      query: {},
    });
    expect(versions.data.map((v) => v.id)).toEqual([v2.id, v1.id]);
    expect(
      (
        await control.rpc.request(S.getSkillVersion, {
          actor: control.admin,
          skillId: skill.id,
          version: '1',
        })
      ).id,
    ).toBe(v1.id);
    const row = await control.db.prisma.skillVersion.findUniqueOrThrow({ where: { id: v2.id } });
    expect(Object.keys(row.files as object)).toEqual(['scripts/format.py']);
  });

  it('rejects bad front matter, a missing SKILL.md or mixed folders, and creates nothing', async () => {
    const before = await control.db.prisma.skill.count();
    const bad = (files: { path: string; content_base64: string }[], message: RegExp) =>
      expect(control.rpc.request(S.createSkill, { actor: control.admin, body: { files } })).rejects.toSatisfy(
        (e) => AppError.is(e, 'INVALID_REQUEST') && message.test((e as Error).message),
      );
    await bad(upload(skillMd('Not Valid!')), /name/);
    await bad(upload('# no front matter\n'), /front matter/);
    await bad([{ path: 'x/README.md', content_base64: b64('hi') }], /SKILL\.md is missing/);
    await bad(
      [...upload(skillMd('a')), { path: 'other/file.txt', content_base64: b64('x') }],
      /one top-level directory/,
    );
    await bad([{ path: 'x/../SKILL.md', content_base64: b64(skillMd('a')) }], /\.\./);
    expect(await control.db.prisma.skill.count()).toBe(before);
  });

  it('refuses a version that renames the skill, and deletes skills', async () => {
    const skill = await control.rpc.request(S.createSkill, {
      actor: control.admin,
      body: { display_name: 'Mailer', files: upload(skillMd('mailer'), 'mailer') },
    });
    expect(skill.display_name).toBe('Mailer');
    await expect(
      control.rpc.request(S.createSkillVersion, {
        actor: control.admin,
        skillId: skill.id,
        body: { files: upload(skillMd('other'), 'mailer') },
      }),
    ).rejects.toSatisfy(
      (e) => AppError.is(e, 'INVALID_REQUEST') && /must stay "mailer"/.test((e as Error).message),
    );
    expect(await control.db.prisma.skillVersion.count({ where: { skillId: skill.id } })).toBe(1);
    await control.rpc.request(S.deleteSkill, { actor: control.admin, id: skill.id });
    await expect(control.rpc.request(S.getSkill, { actor: control.admin, id: skill.id })).rejects.toSatisfy(
      (e) => AppError.is(e, 'NOT_FOUND'),
    );
  });
});
