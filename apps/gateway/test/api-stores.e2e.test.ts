import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  launchPlatform,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import type { Created, ErrorReply } from './wire-types.js';

interface Reply<T = unknown> {
  status: number;
  body: T;
  text: string;
}

interface Memory {
  id: string;
  path: string;
  content: string | null;
  headVersion: string;
}

interface MemoryVersion {
  operation: string;
  content: string | null;
  redactedAt: string | null;
}

interface Credential {
  id: string;
  label: string;
}

/** Matches any string where the exact value is not known in advance (ids, timestamps). */
const anyString: unknown = expect.any(String);

/**
 * The AgentScope memory, vault-credential and file routes over plain HTTP: memories by path with
 * their history and redaction, credentials whose secret never comes back, and text files.
 */
describe('/api memories, vault credentials and files', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let token: string;

  async function call<T = unknown>(method: string, path: string, body?: unknown): Promise<Reply<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${platform.gatewayUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T, text };
  }

  function expectBadField(reply: Reply, param: string) {
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', param } });
    expect((reply.body as ErrorReply).error.message).toContain(param);
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    const login = await fetch(`${platform.gatewayUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin' }),
    });
    token = ((await login.json()) as { token: string }).token;
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  describe('memories', () => {
    let storeId: string;
    const base = () => `/api/memory-stores/${storeId}`;

    beforeAll(async () => {
      storeId = (await call<Created>('POST', '/api/memory-stores', { name: 'notes' })).body.id;
    });

    it('creates a memory with PUT, updates it with a second PUT, and reads and lists it by path', async () => {
      const created = await call<Memory>('PUT', `${base()}/memories/team/oncall.md`, {
        content: 'pager: alice',
      });
      expect(created.status, created.text).toBe(200);
      expect(created.body).toMatchObject({
        storeId,
        path: 'team/oncall.md',
        content: 'pager: alice',
        headVersion: anyString,
      });
      const updated = await call<Memory>('PUT', `${base()}/memories/team/oncall.md`, {
        content: 'pager: bob',
      });
      expect(updated.body).toMatchObject({ id: created.body.id, content: 'pager: bob' });
      expect(updated.body.headVersion).not.toBe(created.body.headVersion);

      const read = await call('GET', `${base()}/memories/team/oncall.md`);
      expect(read.body).toMatchObject({ id: created.body.id, path: 'team/oncall.md', content: 'pager: bob' });
      await call('PUT', `${base()}/memories/versions/v2.md`, { content: 'a memory under versions/' });
      const list = await call<Memory[]>('GET', `${base()}/memories`);
      expect(list.status).toBe(200);
      expect(list.body.map((m) => [m.path, m.content])).toEqual([
        ['team/oncall.md', 'pager: bob'],
        ['versions/v2.md', 'a memory under versions/'],
      ]);
      // A memory whose path starts with "versions/" is a memory, not a history request.
      expect((await call<Memory>('GET', `${base()}/memories/versions/v2.md`)).body.content).toBe(
        'a memory under versions/',
      );
    });

    it('lists the history of a path, newest first', async () => {
      const history = await call<MemoryVersion[]>('GET', `${base()}/memory-versions/team/oncall.md`);
      expect(history.status, history.text).toBe(200);
      expect(history.body.map((v) => [v.operation, v.content])).toEqual([
        ['modified', 'pager: bob'],
        ['created', 'pager: alice'],
      ]);
    });

    it('redacts a path: its content is gone from every version and the replacement is current', async () => {
      await call('PUT', `${base()}/memories/secrets.md`, { content: 'token=sk-leaked-123' });
      await call('PUT', `${base()}/memories/secrets.md`, { content: 'token=sk-leaked-123 (rotated soon)' });
      const redacted = await call('POST', `${base()}/redact`, {
        path: 'secrets.md',
        replacement: '[redacted]',
      });
      expect(redacted.status, redacted.text).toBe(200);
      expect(redacted.body).toMatchObject({ path: 'secrets.md', content: '[redacted]' });
      const history = await call<MemoryVersion[]>('GET', `${base()}/memory-versions/secrets.md`);
      expect(history.body).toHaveLength(3);
      expect(history.text).not.toContain('sk-leaked-123');
      expect(history.body.slice(1).every((v) => v.redactedAt !== null && !v.content)).toBe(true);
      expect((await call<Memory>('GET', `${base()}/memories/secrets.md`)).body.content).toBe('[redacted]');
    });

    it('deletes by path, then answers 404 for it', async () => {
      expect((await call('DELETE', `${base()}/memories/versions/v2.md`)).status).toBe(204);
      const gone = await call<ErrorReply>('GET', `${base()}/memories/versions/v2.md`);
      expect(gone.status).toBe(404);
      expect(gone.body.error.type).toBe('not_found_error');
      expect((await call<Memory[]>('GET', `${base()}/memories`)).body.map((m) => m.path)).not.toContain(
        'versions/v2.md',
      );
    });

    it('refuses bad bodies and paths with a typed 400 naming the field, writing nothing', async () => {
      expectBadField(await call('PUT', `${base()}/memories/team/new.md`, { content: 42 }), 'content');
      expectBadField(await call('PUT', `${base()}/memories/team//escape.md`, { content: 'x' }), 'path');
      expectBadField(await call('POST', `${base()}/redact`, { replacement: 'x' }), 'path');
      expect((await call<Memory[]>('GET', `${base()}/memories`)).body.map((m) => m.path)).toEqual([
        'secrets.md',
        'team/oncall.md',
      ]);
    });
  });

  describe('vault credentials', () => {
    const SECRET = 'ghp_never-shown-4242';
    const NEW_SECRET = 'ghp_rotated-secret-777';
    let vaultId: string;

    beforeAll(async () => {
      vaultId = (await call<Created>('POST', '/api/vaults', { displayName: 'ci' })).body.id;
    });

    it('creates, lists, patches and deletes credentials without ever returning the secret', async () => {
      const seen: string[] = [];
      const track = <T>(reply: Reply<T>) => (seen.push(reply.text), reply);
      const env = track(
        await call<Credential>('POST', `/api/vaults/${vaultId}/credentials`, {
          type: 'environment_variable',
          label: 'GitHub',
          target: 'GITHUB_TOKEN',
          secret: SECRET,
        }),
      );
      expect(env.status, env.text).toBe(200);
      expect(env.body).toEqual({
        id: anyString,
        type: 'environment_variable',
        label: 'GitHub',
        target: 'GITHUB_TOKEN',
        createdAt: anyString,
      });
      const mcp = track(
        await call<Credential>('POST', `/api/vaults/${vaultId}/credentials`, {
          type: 'static_bearer',
          label: 'Docs MCP',
          target: 'https://mcp.docs.test/sse',
          secret: SECRET,
        }),
      );
      expect(mcp.body).toMatchObject({ type: 'static_bearer', target: 'https://mcp.docs.test/sse' });

      const list = track(await call<Credential[]>('GET', `/api/vaults/${vaultId}/credentials`));
      expect(list.body.map((c) => c.label).sort()).toEqual(['Docs MCP', 'GitHub']);
      const patched = track(
        await call('PATCH', `/api/vaults/${vaultId}/credentials/${env.body.id}`, {
          label: 'GitHub CI',
          secret: NEW_SECRET,
        }),
      );
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body).toMatchObject({ id: env.body.id, label: 'GitHub CI', target: 'GITHUB_TOKEN' });
      expect(track(await call('DELETE', `/api/vaults/${vaultId}/credentials/${mcp.body.id}`)).status).toBe(
        204,
      );
      expect(
        track(await call<Credential[]>('GET', `/api/vaults/${vaultId}/credentials`)).body.map((c) => c.id),
      ).toEqual([env.body.id]);

      for (const text of seen) {
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain(NEW_SECRET);
      }
    });

    it('refuses bad bodies with a typed 400 naming the field, storing nothing', async () => {
      const before = (await call<Credential[]>('GET', `/api/vaults/${vaultId}/credentials`)).body;
      const at = `/api/vaults/${vaultId}/credentials`;
      expectBadField(
        await call('POST', at, { type: 'environment_variable', target: 'GITHUB_TOKEN' }),
        'secret',
      );
      expectBadField(await call('POST', at, { type: 'carrier_pigeon', target: 'X', secret: 's' }), 'type');
      expectBadField(
        await call('POST', at, { type: 'environment_variable', target: 'not a name', secret: 's' }),
        'target',
      );
      expectBadField(
        await call('POST', at, { type: 'static_bearer', target: 'not-a-url', secret: 's' }),
        'target',
      );
      expectBadField(await call('PATCH', `${at}/${before[0]!.id}`, { target: 'OTHER_NAME' }), 'target');
      expect((await call('GET', at)).body).toEqual(before);
    });
  });

  describe('files', () => {
    it('uploads text, lists it, reads its content and deletes it', async () => {
      const uploaded = await call<Created>('POST', '/api/files', {
        filename: 'runbook.md',
        content: '# Runbook\nrestart the pager',
        contentType: 'text/markdown',
      });
      expect(uploaded.status, uploaded.text).toBe(200);
      expect(uploaded.body).toEqual({
        id: anyString,
        filename: 'runbook.md',
        contentType: 'text/markdown',
        sizeBytes: 27,
        createdAt: anyString,
      });
      const id = uploaded.body.id;
      expect((await call<Created[]>('GET', '/api/files')).body.map((f) => f.id)).toContain(id);
      expect((await call('GET', `/api/files/${id}`)).body).toEqual(uploaded.body);
      expect((await call('GET', `/api/files/${id}/content`)).body).toEqual({
        id,
        filename: 'runbook.md',
        content: '# Runbook\nrestart the pager',
      });
      // The same store as /v1: the file is there too.
      expect((await call('GET', `/v1/files/${id}`)).body).toMatchObject({
        id,
        filename: 'runbook.md',
        mime_type: 'text/markdown',
      });

      expect((await call('DELETE', `/api/files/${id}`)).status).toBe(204);
      expect((await call('GET', `/api/files/${id}`)).status).toBe(404);
      expect((await call('GET', '/api/files')).body).toEqual([]);
    });

    it('answers 413 to an oversized upload, at the gateway and at the store, and keeps nothing', async () => {
      const overGateway = await call('POST', '/api/files', {
        filename: 'huge.txt',
        content: 'x'.repeat(800_000),
      });
      expect(overGateway.status).toBe(413);
      expect(overGateway.body).toMatchObject({
        type: 'error',
        error: { type: 'request_too_large', code: 'PAYLOAD_TOO_LARGE' },
      });
      // Under the gateway's bound but over the store's configured limit (512 KiB by default).
      const overStore = await call('POST', '/api/files', {
        filename: 'big.txt',
        content: 'x'.repeat(600_000),
      });
      expect(overStore.status).toBe(413);
      expect((await call('GET', '/api/files')).body).toEqual([]);
    });

    it('refuses bad bodies with a typed 400 naming the field', async () => {
      expectBadField(await call('POST', '/api/files', { content: 'no name' }), 'filename');
      expectBadField(
        await call('POST', '/api/files', { filename: 'a.txt', content: { binary: true } }),
        'content',
      );
      expect((await call('GET', '/api/files')).body).toEqual([]);
    });
  });
});
