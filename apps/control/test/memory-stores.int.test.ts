import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, ControlSubjects as S } from '@agentry/contracts';
import { startControl, type ControlTestApp } from './control-test-app.js';
import { unchecked } from './unchecked-subject.js';

describe('control: memory stores, memories and versions over NATS', () => {
  let control: ControlTestApp;
  beforeAll(async () => {
    control = await startControl();
  });
  afterAll(async () => {
    await control?.close();
  });

  const actor = () => control.admin;
  const newStore = (name = 'notes') =>
    control.rpc.request(S.createMemoryStore, { actor: actor(), body: { name } });

  it('writes a new version on every change and lists the history newest first', async () => {
    const store = await newStore();
    const created = await control.rpc.request(S.createMemory, {
      actor: actor(),
      storeId: store.id,
      body: { path: '/prefs/editor.md', content: 'tabs' },
    });
    // Writes answer the `basic` view unless asked: hash and size, no content.
    expect(created).toMatchObject({ path: '/prefs/editor.md', content: null, content_size_bytes: 4 });
    const updated = await control.rpc.request(S.updateMemory, {
      actor: actor(),
      storeId: store.id,
      id: created.id,
      body: {
        content: 'spaces',
        precondition: { type: 'content_sha256', content_sha256: created.content_sha256 },
      },
    });
    expect(updated.memory_version_id).not.toBe(created.memory_version_id);
    expect(updated.content_sha256).not.toBe(created.content_sha256);

    const history = await control.rpc.request(S.listMemoryVersions, {
      actor: actor(),
      storeId: store.id,
      query: { memory_id: created.id, view: 'full' },
    });
    expect(history.data.map((v) => [v.operation, v.content])).toEqual([
      ['modified', 'spaces'],
      ['created', 'tabs'],
    ]);
    expect(history.data[1]).toMatchObject({
      id: created.memory_version_id,
      created_by: { type: 'user_actor' },
    });
    const first = await control.rpc.request(S.getMemoryVersion, {
      actor: actor(),
      storeId: store.id,
      id: created.memory_version_id,
      query: {},
    });
    expect(first.content).toBe('tabs');
  });

  it('refuses a stale precondition and keeps the content', async () => {
    const store = await newStore();
    const memory = await control.rpc.request(S.createMemory, {
      actor: actor(),
      storeId: store.id,
      body: { path: '/a.md', content: 'one' },
    });
    await control.rpc.request(S.updateMemory, {
      actor: actor(),
      storeId: store.id,
      id: memory.id,
      body: { content: 'two' },
    });
    await expect(
      control.rpc.request(S.updateMemory, {
        actor: actor(),
        storeId: store.id,
        id: memory.id,
        body: {
          content: 'three',
          precondition: { type: 'content_sha256', content_sha256: memory.content_sha256 },
        },
      }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'PRECONDITION_FAILED'));
    const now = await control.rpc.request(S.getMemory, {
      actor: actor(),
      storeId: store.id,
      id: memory.id,
      query: {},
    });
    expect(now.content).toBe('two');
  });

  it('redacts the content of every version of a memory, and the versions say so', async () => {
    const store = await newStore();
    const memory = await control.rpc.request(S.createMemory, {
      actor: actor(),
      storeId: store.id,
      body: { path: '/leak.md', content: 'password=hunter2' },
    });
    await control.rpc.request(S.updateMemory, {
      actor: actor(),
      storeId: store.id,
      id: memory.id,
      body: { content: 'password=hunter2 (old)' },
    });
    const other = await control.rpc.request(S.createMemory, {
      actor: actor(),
      storeId: store.id,
      body: { path: '/keep.md', content: 'fine' },
    });

    const redacted = await control.rpc.request(S.redactMemoryVersion, {
      actor: actor(),
      storeId: store.id,
      id: memory.memory_version_id,
    });
    expect(redacted).toMatchObject({ content: null, content_sha256: null });
    expect(redacted.redacted_at).toBeTruthy();

    const history = await control.rpc.request(S.listMemoryVersions, {
      actor: actor(),
      storeId: store.id,
      query: { view: 'full' },
    });
    const mine = history.data.filter((v) => v.memory_id === memory.id);
    expect(mine).toHaveLength(2);
    for (const v of mine)
      expect(v).toMatchObject({ content: null, redacted_at: expect.any(String) as unknown });
    expect(history.data.find((v) => v.memory_id === other.id)).toMatchObject({
      content: 'fine',
      redacted_at: null,
    });

    const current = await control.rpc.request(S.getMemory, {
      actor: actor(),
      storeId: store.id,
      id: memory.id,
      query: {},
    });
    expect(current.content).toBe('');
    const rows = await control.db.prisma.memoryVersion.findMany({ where: { memoryId: memory.id } });
    expect(JSON.stringify(rows)).not.toContain('hunter2');
  });

  it('lists by path prefix, folding deeper paths into prefixes at a depth', async () => {
    const store = await newStore();
    for (const path of ['/a/1.md', '/a/b/2.md', '/a/b/3.md', '/z.md']) {
      await control.rpc.request(S.createMemory, {
        actor: actor(),
        storeId: store.id,
        body: { path, content: path },
      });
    }
    const shallow = await control.rpc.request(S.listMemories, {
      actor: actor(),
      storeId: store.id,
      query: { path_prefix: '/a/', depth: 1 },
    });
    expect(shallow.data.map((i) => [i.type, i.path])).toEqual([
      ['memory', '/a/1.md'],
      ['memory_prefix', '/a/b/'],
    ]);
    const first = await control.rpc.request(S.listMemories, {
      actor: actor(),
      storeId: store.id,
      query: { limit: 3 },
    });
    expect(first.data.map((i) => i.path)).toEqual(['/a/1.md', '/a/b/2.md', '/a/b/3.md']);
    const second = await control.rpc.request(S.listMemories, {
      actor: actor(),
      storeId: store.id,
      query: { limit: 3, page: first.next_page },
    });
    expect(second.data.map((i) => i.path)).toEqual(['/z.md']);
    expect(second.next_page).toBeNull();
  });

  it('deletes a memory as a version; the path can be written again and keeps its history', async () => {
    const store = await newStore();
    const memory = await control.rpc.request(S.createMemory, {
      actor: actor(),
      storeId: store.id,
      body: { path: '/x.md', content: 'v1' },
    });
    await control.rpc.request(S.deleteMemory, { actor: actor(), storeId: store.id, id: memory.id });
    await expect(
      control.rpc.request(S.getMemory, { actor: actor(), storeId: store.id, id: memory.id, query: {} }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'NOT_FOUND'));
    const again = await control.rpc.request(S.createMemory, {
      actor: actor(),
      storeId: store.id,
      body: { path: '/x.md', content: 'v2' },
    });
    const history = await control.rpc.request(S.listMemoryVersions, {
      actor: actor(),
      storeId: store.id,
      query: { memory_id: again.id },
    });
    expect(history.data.map((v) => v.operation)).toEqual(['created', 'deleted', 'created']);
  });

  it('rejects a bad path or a duplicate with a typed error and writes nothing', async () => {
    const store = await newStore();
    await control.rpc.request(S.createMemory, {
      actor: actor(),
      storeId: store.id,
      body: { path: '/dup.md', content: 'x' },
    });
    await expect(
      control.rpc.request(unchecked(S.createMemory), {
        actor: actor(),
        storeId: store.id,
        body: { path: '/a/../b.md', content: 'x' },
      }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'INVALID_REQUEST') && /path/.test((e as Error).message));
    await expect(
      control.rpc.request(S.createMemory, {
        actor: actor(),
        storeId: store.id,
        body: { path: '/dup.md', content: 'y' },
      }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'CONFLICT') && /\/dup\.md/.test((e as Error).message));
    expect(await control.db.prisma.memoryVersion.count({ where: { memoryStoreId: store.id } })).toBe(1);
  });

  it('makes an archived store read-only and deletes a store with its memories', async () => {
    const store = await newStore('old');
    const memory = await control.rpc.request(S.createMemory, {
      actor: actor(),
      storeId: store.id,
      body: { path: '/m.md', content: 'x' },
    });
    await control.rpc.request(S.archiveMemoryStore, { actor: actor(), id: store.id });
    await expect(
      control.rpc.request(S.updateMemory, {
        actor: actor(),
        storeId: store.id,
        id: memory.id,
        body: { content: 'y' },
      }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'PRECONDITION_FAILED'));
    expect(
      (
        await control.rpc.request(S.getMemory, {
          actor: actor(),
          storeId: store.id,
          id: memory.id,
          query: {},
        })
      ).content,
    ).toBe('x');
    await control.rpc.request(S.deleteMemoryStore, { actor: actor(), id: store.id });
    expect(await control.db.prisma.memory.count({ where: { memoryStoreId: store.id } })).toBe(0);
  });
});
