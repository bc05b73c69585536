import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_WORKSPACE_MAX_FILE_BYTES,
  AppError,
  ControlSubjects as A,
  ControlSubjects as S,
  ControlWorkspaceSubjects as W,
  type Actor,
  type ErrorCode,
} from '@agentry/contracts';
import { createSqlPool } from '@agentry/db';
import { PostgresWorkspaceFs, scopeRootKey } from '@agentry/workspace';
import { startControl, type ControlTestApp } from './control-test-app.js';

const failsWith = (code: ErrorCode, pattern?: RegExp) => (e: unknown) =>
  AppError.is(e, code) && (!pattern || pattern.test((e as Error).message));

const SKILL_MD =
  '---\nname: release-notes\ndescription: Writes release notes from merged changes\n---\n\nList the changes, newest first.\n';

describe('control: agent workspace files', () => {
  let control: ControlTestApp;
  let admin: Actor;
  let viewer: Actor;
  let outsider: Actor;
  let grantee: Actor;
  let agentId: string;
  let pool: ReturnType<typeof createSqlPool>;

  beforeAll(async () => {
    // The dataplane owns the workspace rows: control's writes go through it.
    control = await startControl({}, { dataplane: true });
    admin = control.admin;
    pool = createSqlPool(control.db.url, 2);
    const others = await control.rpc.request(A.createNamespace, {
      actor: admin,
      body: { name: 'Others', slug: 'others' },
    });
    const v = await control.rpc.request(A.createUser, {
      actor: admin,
      body: { username: 'vic', password: 'viewer-pass-1', role: 'viewer' },
    });
    const o = await control.rpc.request(A.createUser, {
      actor: admin,
      body: { username: 'otto', password: 'otto-pass-12', namespaceId: others.id },
    });
    const g = await control.rpc.request(A.createUser, {
      actor: admin,
      body: { username: 'gina', password: 'gina-pass-12', namespaceId: others.id },
    });
    viewer = await control.rpc.request(A.resolveUser, { userId: v.id });
    outsider = await control.rpc.request(A.resolveUser, { userId: o.id });
    grantee = await control.rpc.request(A.resolveUser, { userId: g.id });
    agentId = (
      await control.rpc.request(S.createAgent, { actor: admin, body: { name: 'writer', model: 'scripted' } })
    ).id;
  });
  afterAll(async () => {
    await pool?.end();
    await control?.close();
  });

  const write = (actor: Actor, path: string, content: string) =>
    control.rpc.request(W.writeFile, { actor, agentId, body: { path, content } });
  const read = (actor: Actor, path: string) =>
    control.rpc.request(W.readFile, { actor, agentId, query: { path } });

  it('writes, reads, lists, moves and deletes files, in the rows a turn of the agent mounts', async () => {
    expect(await control.rpc.request(W.summary, { actor: admin, agentId })).toMatchObject({
      fileCount: 0,
      hasAgentsMd: false,
      skills: [],
    });
    const written = await write(admin, 'AGENTS.md', '# Writer\nAlways sign off with "Cheers, Quill".\n');
    expect(written).toMatchObject({ path: 'AGENTS.md', kind: 'file', size: 47 });
    await write(admin, 'knowledge/style.md', 'Short sentences.');
    expect((await read(admin, 'AGENTS.md')).content).toContain('Cheers, Quill');

    // The same table, tenant and AGENT root the dataplane uses for any session of this agent.
    const turnView = new PostgresWorkspaceFs({
      sql: pool,
      table: 'workspace_files',
      readOnly: true,
      tenantId: admin.tenantId,
      root: scopeRootKey('AGENT', { tenantId: admin.tenantId, agentId, sessionId: 'sesn_any' }),
    });
    expect(await turnView.readText('AGENTS.md')).toContain('Cheers, Quill');

    const listed = await control.rpc.request(W.listFiles, { actor: admin, agentId });
    expect(listed.data.map((e) => `${e.kind}:${e.path}`)).toEqual([
      'file:AGENTS.md',
      'directory:knowledge',
      'file:knowledge/style.md',
    ]);

    expect(
      await control.rpc.request(W.moveFile, {
        actor: admin,
        agentId,
        body: { from: 'knowledge/style.md', to: 'knowledge/voice.md' },
      }),
    ).toMatchObject({
      path: 'knowledge/voice.md',
    });
    await expect(read(admin, 'knowledge/style.md')).rejects.toSatisfy(failsWith('NOT_FOUND'));
    expect(
      await control.rpc.request(W.deleteFile, { actor: admin, agentId, query: { path: 'knowledge' } }),
    ).toEqual({ path: 'knowledge', deleted: true });
    expect(await control.rpc.request(W.summary, { actor: admin, agentId })).toMatchObject({
      fileCount: 1,
      hasAgentsMd: true,
      totalBytes: 47,
    });
  });

  it('refuses paths that leave the workspace, and oversized files, changing nothing', async () => {
    for (const path of ['../escape.md', '/etc/passwd', 'a/../../b', 'x\u0000y', 'a\\b']) {
      await expect(write(admin, path, 'x')).rejects.toSatisfy(failsWith('PATH_ESCAPE'));
    }
    await expect(read(admin, '../../other/AGENTS.md')).rejects.toSatisfy(failsWith('PATH_ESCAPE'));
    await expect(
      control.rpc.request(W.moveFile, {
        actor: admin,
        agentId,
        body: { from: 'AGENTS.md', to: '../AGENTS.md' },
      }),
    ).rejects.toSatisfy(failsWith('PATH_ESCAPE'));
    await expect(write(admin, '.', 'x')).rejects.toSatisfy(failsWith('INVALID_REQUEST', /root/));
    expect((await control.rpc.request(W.readFile, { actor: admin, agentId, query: {} })).path).toBe(
      'AGENTS.md',
    );
    await expect(control.rpc.request(W.deleteFile, { actor: admin, agentId, query: {} })).rejects.toSatisfy(
      failsWith('INVALID_REQUEST', /path/),
    );
    await expect(write(admin, 'big.md', 'x'.repeat(AGENT_WORKSPACE_MAX_FILE_BYTES + 1))).rejects.toSatisfy(
      failsWith('PAYLOAD_TOO_LARGE'),
    );
    expect(
      (await control.rpc.request(W.listFiles, { actor: admin, agentId })).data.map((e) => e.path),
    ).toEqual(['AGENTS.md']);
  });

  it("answers a change the workspace refuses with the workspace's own error, changing nothing", async () => {
    const size = AGENT_WORKSPACE_MAX_FILE_BYTES + 1;
    await expect(write(admin, 'big.md', 'x'.repeat(size))).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: `big.md would be ${size} bytes; the limit is ${AGENT_WORKSPACE_MAX_FILE_BYTES}`,
      details: { path: 'big.md', size, limit: AGENT_WORKSPACE_MAX_FILE_BYTES },
    });
    await write(admin, 'notes/a.md', 'a');
    const move = (from: string, to: string) =>
      control.rpc.request(W.moveFile, { actor: admin, agentId, body: { from, to } });
    await expect(move('notes/a.md', 'AGENTS.md')).rejects.toMatchObject({
      code: 'ALREADY_EXISTS',
      message: 'Already exists: AGENTS.md',
    });
    await expect(move('notes/missing.md', 'notes/b.md')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'No such file or directory: notes/missing.md',
    });
    await expect(
      control.rpc.request(W.deleteFile, { actor: admin, agentId, query: { path: 'nowhere' } }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'No such file or directory: nowhere' });
    await control.rpc.request(W.deleteFile, { actor: admin, agentId, query: { path: 'notes' } });
    expect(
      (await control.rpc.request(W.listFiles, { actor: admin, agentId })).data.map((e) => e.path),
    ).toEqual(['AGENTS.md']);
    expect((await read(admin, 'AGENTS.md')).content).toContain('Cheers, Quill');
  });

  it('stores a skill as skills/<name>/SKILL.md plus resources and validates its front matter', async () => {
    const put = await control.rpc.request(W.putSkill, {
      actor: admin,
      agentId,
      name: 'release-notes',
      body: { markdown: SKILL_MD, resources: { 'templates/notes.md': '## {{version}}' } },
    });
    expect(put).toMatchObject({
      name: 'release-notes',
      description: 'Writes release notes from merged changes',
      resources: ['templates/notes.md'],
    });
    expect((await read(admin, 'skills/release-notes/templates/notes.md')).content).toBe('## {{version}}');
    expect((await control.rpc.request(W.listSkills, { actor: admin, agentId })).data).toEqual([
      {
        name: 'release-notes',
        description: 'Writes release notes from merged changes',
        path: 'skills/release-notes/SKILL.md',
      },
    ]);

    const bad = (markdown: string, resources?: Record<string, string>) =>
      control.rpc.request(W.putSkill, {
        actor: admin,
        agentId,
        name: 'release-notes',
        body: { markdown, ...(resources ? { resources } : {}) },
      });
    await expect(bad('no front matter')).rejects.toSatisfy(failsWith('INVALID_REQUEST', /front matter/));
    await expect(bad('---\nname: release-notes\n---\nbody')).rejects.toSatisfy(
      failsWith('INVALID_REQUEST', /description/),
    );
    await expect(bad('---\nname: other\ndescription: d\n---\n')).rejects.toSatisfy(
      failsWith('INVALID_REQUEST', /must equal/),
    );
    await expect(bad(SKILL_MD, { '../../AGENTS.md': 'pwned' })).rejects.toSatisfy(failsWith('PATH_ESCAPE'));
    await expect(control.rpc.request(W.getSkill, { actor: admin, agentId, name: '..' })).rejects.toSatisfy(
      failsWith('INVALID_REQUEST'),
    );
    // Nothing changed by the refused writes.
    expect(
      (await control.rpc.request(W.getSkill, { actor: admin, agentId, name: 'release-notes' })).markdown,
    ).toBe(SKILL_MD);
    expect((await read(admin, 'AGENTS.md')).content).toContain('Cheers, Quill');

    // A PUT replaces the folder: resources left out are gone.
    expect(
      (
        await control.rpc.request(W.putSkill, {
          actor: admin,
          agentId,
          name: 'release-notes',
          body: { markdown: SKILL_MD },
        })
      ).resources,
    ).toEqual([]);
    expect(
      await control.rpc.request(W.deleteSkill, { actor: admin, agentId, name: 'release-notes' }),
    ).toEqual({ path: 'skills/release-notes', deleted: true });
    await expect(
      control.rpc.request(W.getSkill, { actor: admin, agentId, name: 'release-notes' }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND'));
  });

  it('writes sub-agent declarations in the front-matter format the harness reads', async () => {
    const put = await control.rpc.request(W.putSubagent, {
      actor: admin,
      agentId,
      name: 'researcher',
      body: {
        description: 'Finds sources: papers, "posts"',
        model: 'claude-haiku-4-5',
        maxIters: 4,
        tools: ['web_search'],
        inlineBody: 'You research.',
      },
    });
    expect(put).toMatchObject({
      name: 'researcher',
      path: 'subagents/researcher.md',
      maxIters: 4,
      tools: ['web_search'],
    });
    expect((await read(admin, 'subagents/researcher.md')).content).toBe(
      '---\ndescription: "Finds sources: papers, \\"posts\\""\nmodel: "claude-haiku-4-5"\nmaxIters: 4\ntools: ["web_search"]\n---\n\nYou research.\n',
    );
    expect((await control.rpc.request(W.listSubagents, { actor: admin, agentId })).data).toEqual([put]);
    expect((await control.rpc.request(W.summary, { actor: admin, agentId })).subagents).toEqual([
      'researcher',
    ]);
    await control.rpc.request(W.deleteSubagent, { actor: admin, agentId, name: 'researcher' });
    expect((await control.rpc.request(W.listSubagents, { actor: admin, agentId })).data).toEqual([]);
    await expect(
      control.rpc.request(W.deleteSubagent, { actor: admin, agentId, name: 'researcher' }),
    ).rejects.toSatisfy(failsWith('NOT_FOUND'));
  });

  it('lets viewers read but not write, hides the agent from other namespaces, and lets EDIT shares write', async () => {
    expect((await read(viewer, 'AGENTS.md')).content).toContain('Cheers, Quill');
    await expect(write(viewer, 'AGENTS.md', 'x')).rejects.toSatisfy(failsWith('PERMISSION_DENIED'));
    // Refusals come before any check of what was sent.
    await expect(control.rpc.request(W.deleteFile, { actor: viewer, agentId, query: {} })).rejects.toSatisfy(
      failsWith('PERMISSION_DENIED'),
    );
    await expect(write(viewer, '../x', 'x')).rejects.toSatisfy(failsWith('PERMISSION_DENIED'));
    await expect(read(outsider, 'AGENTS.md')).rejects.toSatisfy(failsWith('NOT_FOUND', /Agent/));
    await expect(write(outsider, 'AGENTS.md', 'x')).rejects.toSatisfy(failsWith('NOT_FOUND', /Agent/));
    await expect(control.rpc.request(W.summary, { actor: grantee, agentId })).rejects.toSatisfy(
      failsWith('NOT_FOUND'),
    );

    await control.rpc.request(A.shareAgent, {
      actor: admin,
      id: agentId,
      body: { granteeId: grantee.userId!, tier: 'RUN' },
    });
    expect((await read(grantee, 'AGENTS.md')).content).toContain('Cheers, Quill');
    await expect(write(grantee, 'AGENTS.md', 'x')).rejects.toSatisfy(failsWith('PERMISSION_DENIED'));

    await control.rpc.request(A.shareAgent, {
      actor: admin,
      id: agentId,
      body: { granteeId: grantee.userId!, tier: 'EDIT' },
    });
    await write(grantee, 'knowledge/from-gina.md', 'shared edit');
    expect((await read(admin, 'knowledge/from-gina.md')).content).toBe('shared edit');
    expect((await read(admin, 'AGENTS.md')).content).toContain('Cheers, Quill');
  });

  it('records every write in the audit log, without file contents', async () => {
    const page = await control.rpc.request(A.listAuditLog, {
      actor: admin,
      query: { resourceType: 'agent_workspace', resourceId: agentId, limit: 100 },
    });
    const actions = page.data.map((e) => e.action);
    for (const action of [
      'workspace.write',
      'workspace.move',
      'workspace.delete',
      'workspace.skill.put',
      'workspace.skill.delete',
      'workspace.subagent.put',
    ]) {
      expect(actions).toContain(action);
    }
    expect(JSON.stringify(page.data)).not.toContain('Cheers, Quill');
  });
});
