import { createDecipheriv } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, ControlSubjects as S, type Actor } from '@agentry/contracts';
import { startControl, type ControlTestApp } from './control-test-app.js';
import { unchecked } from './unchecked-subject.js';

const MASTER_KEY = Buffer.alloc(32, 7);

/** Decrypts a stored credential the way the platform does, straight from the row. */
function decryptRow(row: {
  id: string;
  ciphertext: Uint8Array;
  iv: Uint8Array;
  tag: Uint8Array;
}): Record<string, string> {
  const decipher = createDecipheriv('aes-256-gcm', MASTER_KEY, row.iv);
  decipher.setAAD(Buffer.from(row.id, 'utf8'));
  decipher.setAuthTag(row.tag);
  return JSON.parse(
    Buffer.concat([decipher.update(row.ciphertext), decipher.final()]).toString('utf8'),
  ) as Record<string, string>;
}

describe('control: vaults and credentials over NATS', () => {
  let control: ControlTestApp;
  beforeAll(async () => {
    control = await startControl({ AGENTRY_MASTER_KEY: MASTER_KEY.toString('base64') });
  });
  afterAll(async () => {
    await control?.close();
  });

  const newVault = (name = 'team') =>
    control.rpc.request(S.createVault, { actor: control.admin, body: { display_name: name } });

  it('stores each credential type sealed: never in a reply, ciphertext decrypts back to the secret', async () => {
    const vault = await newVault();
    const secrets = [
      'sb-SECRET-1111',
      'env-SECRET-2222',
      'oauth-ACCESS-3333',
      'oauth-REFRESH-4444',
      'oauth-CLIENT-5555',
    ];
    const replies: unknown[] = [];
    const bearer = await control.rpc.request(S.createCredential, {
      actor: control.admin,
      vaultId: vault.id,
      body: {
        auth: { type: 'static_bearer', mcp_server_url: 'https://mcp.example.test/sse', token: secrets[0]! },
      },
    });
    const env = await control.rpc.request(S.createCredential, {
      actor: control.admin,
      vaultId: vault.id,
      body: {
        auth: {
          type: 'environment_variable',
          secret_name: 'GITHUB_TOKEN',
          secret_value: secrets[1]!,
          networking: { type: 'unrestricted' },
        },
      },
    });
    const oauth = await control.rpc.request(S.createCredential, {
      actor: control.admin,
      vaultId: vault.id,
      body: {
        display_name: 'linear',
        auth: {
          type: 'mcp_oauth',
          mcp_server_url: 'https://mcp.linear.test/mcp',
          access_token: secrets[2]!,
          refresh: {
            client_id: 'cid',
            refresh_token: secrets[3]!,
            token_endpoint: 'https://auth.linear.test/token',
            token_endpoint_auth: { type: 'client_secret_post', client_secret: secrets[4]! },
          },
        },
      },
    });
    replies.push(bearer, env, oauth);
    replies.push(
      await control.rpc.request(S.getCredential, { actor: control.admin, vaultId: vault.id, id: oauth.id }),
    );
    replies.push(
      await control.rpc.request(S.listCredentials, {
        actor: control.admin,
        vaultId: vault.id,
        query: { limit: 10 },
      }),
    );

    expect(bearer.auth).toEqual({ type: 'static_bearer', mcp_server_url: 'https://mcp.example.test/sse' });
    expect(env.auth).toMatchObject({
      secret_name: 'GITHUB_TOKEN',
      injection_location: { header: true, body: false },
    });
    expect(oauth.auth).toMatchObject({
      type: 'mcp_oauth',
      refresh: { client_id: 'cid', token_endpoint_auth: { type: 'client_secret_post' } },
    });
    const wire = JSON.stringify(replies);
    for (const secret of secrets) expect(wire).not.toContain(secret);

    const rows = await control.db.prisma.vaultCredential.findMany({ where: { vaultId: vault.id } });
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      const raw = Buffer.from(row.ciphertext).toString('latin1') + JSON.stringify(row.target);
      for (const secret of secrets) expect(raw).not.toContain(secret);
    }
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(decryptRow(byId.get(bearer.id)!)).toEqual({ token: secrets[0] });
    expect(decryptRow(byId.get(env.id)!)).toEqual({ secret_value: secrets[1] });
    expect(decryptRow(byId.get(oauth.id)!)).toEqual({
      access_token: secrets[2],
      refresh_token: secrets[3],
      client_secret: secrets[4],
    });
  });

  it('rotates a secret on update and keeps the rest', async () => {
    const vault = await newVault();
    const cred = await control.rpc.request(S.createCredential, {
      actor: control.admin,
      vaultId: vault.id,
      body: {
        auth: {
          type: 'environment_variable',
          secret_name: 'API_KEY',
          secret_value: 'old-value',
          networking: { type: 'unrestricted' },
        },
      },
    });
    const updated = await control.rpc.request(S.updateCredential, {
      actor: control.admin,
      vaultId: vault.id,
      id: cred.id,
      body: {
        auth: {
          type: 'environment_variable',
          secret_value: 'new-value',
          networking: { type: 'limited', allowed_hosts: ['api.test'] },
        },
        metadata: { team: 'infra' },
      },
    });
    expect(updated.auth).toMatchObject({
      secret_name: 'API_KEY',
      networking: { type: 'limited', allowed_hosts: ['api.test'] },
    });
    expect(updated.metadata).toEqual({ team: 'infra' });
    const row = await control.db.prisma.vaultCredential.findUniqueOrThrow({ where: { id: cred.id } });
    expect(decryptRow(row)).toEqual({ secret_value: 'new-value' });
  });

  it('refuses to change a credential’s type, and leaves it as it was', async () => {
    const vault = await newVault();
    const cred = await control.rpc.request(S.createCredential, {
      actor: control.admin,
      vaultId: vault.id,
      body: { auth: { type: 'static_bearer', mcp_server_url: 'https://mcp.test/', token: 'keep-me' } },
    });
    await expect(
      control.rpc.request(S.updateCredential, {
        actor: control.admin,
        vaultId: vault.id,
        id: cred.id,
        body: { auth: { type: 'mcp_oauth', access_token: 'x' } },
      }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'INVALID_REQUEST') && /auth\.type/.test((e as Error).message));
    const row = await control.db.prisma.vaultCredential.findUniqueOrThrow({ where: { id: cred.id } });
    expect(row.type).toBe('static_bearer');
    expect(decryptRow(row)).toEqual({ token: 'keep-me' });
  });

  it('rejects a malformed credential with INVALID_REQUEST naming the field, and stores nothing', async () => {
    const vault = await newVault();
    await expect(
      control.rpc.request(unchecked(S.createCredential), {
        actor: control.admin,
        vaultId: vault.id,
        body: {
          auth: {
            type: 'environment_variable',
            secret_name: '1-bad name',
            secret_value: 'v',
            networking: { type: 'unrestricted' },
          },
        },
      }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'INVALID_REQUEST') && /secret_name/.test((e as Error).message));
    expect(await control.db.prisma.vaultCredential.count({ where: { vaultId: vault.id } })).toBe(0);
  });

  it('archives a vault: listed only with include_archived, closed to new credentials', async () => {
    const vault = await newVault('to-archive');
    const archived = await control.rpc.request(S.archiveVault, { actor: control.admin, id: vault.id });
    expect(archived.archived_at).not.toBeNull();
    const listed = await control.rpc.request(S.listVaults, { actor: control.admin, query: { limit: 1000 } });
    expect(listed.data.map((v) => v.id)).not.toContain(vault.id);
    const all = await control.rpc.request(S.listVaults, {
      actor: control.admin,
      query: { limit: 1000, include_archived: true },
    });
    expect(all.data.map((v) => v.id)).toContain(vault.id);
    await expect(
      control.rpc.request(S.createCredential, {
        actor: control.admin,
        vaultId: vault.id,
        body: { auth: { type: 'static_bearer', mcp_server_url: 'https://mcp.test/', token: 't' } },
      }),
    ).rejects.toSatisfy((e) => AppError.is(e, 'PRECONDITION_FAILED'));
  });

  it('deletes a vault with its credentials, and hides vaults from other namespaces and from viewers’ writes', async () => {
    const vault = await newVault('doomed');
    await control.rpc.request(S.createCredential, {
      actor: control.admin,
      vaultId: vault.id,
      body: { auth: { type: 'static_bearer', mcp_server_url: 'https://mcp.test/', token: 't' } },
    });
    const stranger: Actor = { ...control.admin, namespaceId: 'ns_elsewhere' };
    await expect(control.rpc.request(S.getVault, { actor: stranger, id: vault.id })).rejects.toSatisfy((e) =>
      AppError.is(e, 'NOT_FOUND'),
    );
    const viewer: Actor = { ...control.admin, role: 'viewer' };
    await expect(control.rpc.request(S.deleteVault, { actor: viewer, id: vault.id })).rejects.toSatisfy((e) =>
      AppError.is(e, 'PERMISSION_DENIED'),
    );
    expect(await control.rpc.request(S.deleteVault, { actor: control.admin, id: vault.id })).toEqual({
      id: vault.id,
      type: 'vault_deleted',
    });
    expect(await control.db.prisma.vaultCredential.count({ where: { vaultId: vault.id } })).toBe(0);
    await expect(control.rpc.request(S.getVault, { actor: control.admin, id: vault.id })).rejects.toSatisfy(
      (e) => AppError.is(e, 'NOT_FOUND'),
    );
  });
});
