import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ControlSubjects as V,
  ControlSubjects as S,
  EnvironmentCredentialSubjects as E,
  McpCredentialSubjects as M,
} from '@agentry/contracts';
import { startControl, type ControlTestApp } from './control-test-app.js';

const GITHUB = 'https://mcp.github.test/mcp';
const LINEAR = 'https://mcp.linear.test/sse';

describe('control: vault credentials matched to MCP servers for a running session', () => {
  let control: ControlTestApp;
  let sessionOf: (vaultIds: string[], actor?: ControlTestApp['admin']) => Promise<string>;
  const vault = async (name: string) =>
    (await control.rpc.request(V.createVault, { actor: control.admin, body: { display_name: name } })).id;
  const bearer = (vaultId: string, url: string, token: string) =>
    control.rpc.request(V.createCredential, {
      actor: control.admin,
      vaultId,
      body: { auth: { type: 'static_bearer', mcp_server_url: url, token } },
    });
  const resolve = (sessionId: string, serverUrls: string[], tenantId = control.admin.tenantId) =>
    control.rpc.request(M.resolve, { tenantId, sessionId, serverUrls });

  beforeAll(async () => {
    control = await startControl({}, { dataplane: true });
    const agent = await control.rpc.request(S.createAgent, {
      actor: control.admin,
      body: { name: 'mcp', model: 'scripted' },
    });
    const env = await control.rpc.request(S.createEnvironment, {
      actor: control.admin,
      body: { name: 'mcp', config: { type: 'local' } },
    });
    sessionOf = async (vaultIds, actor = control.admin) =>
      (
        await control.rpc.request(S.createSession, {
          actor,
          body: { agent: agent.id, environment_id: env.id, vault_ids: vaultIds },
        })
      ).id;
  });
  afterAll(async () => {
    await control?.close();
  });

  it('takes the first vault in the session order that holds a credential for the URL, ignoring a trailing slash', async () => {
    const [first, second] = [await vault('first'), await vault('second')];
    await bearer(second, GITHUB, 'second-github');
    await bearer(first, `${GITHUB}/`, 'first-github');
    await bearer(second, LINEAR, 'second-linear');
    const oauth = await control.rpc.request(V.createCredential, {
      actor: control.admin,
      vaultId: first,
      body: {
        auth: { type: 'mcp_oauth', mcp_server_url: 'https://oauth.test/mcp', access_token: 'oauth-access' },
      },
    });
    const session = await sessionOf([first, second]);

    const { credentials } = await resolve(session, [
      GITHUB,
      LINEAR,
      'https://oauth.test/mcp',
      'https://unknown.test/mcp',
    ]);
    expect(credentials).toEqual([
      {
        server_url: GITHUB,
        credential_id: expect.any(String) as unknown,
        vault_id: first,
        type: 'static_bearer',
        access_token: 'first-github',
      },
      {
        server_url: LINEAR,
        credential_id: expect.any(String) as unknown,
        vault_id: second,
        type: 'static_bearer',
        access_token: 'second-linear',
      },
      {
        server_url: 'https://oauth.test/mcp',
        credential_id: oauth.id,
        vault_id: first,
        type: 'mcp_oauth',
        access_token: 'oauth-access',
        expires_at: null,
        refreshable: false,
      },
    ]);
    expect((await resolve(await sessionOf([second, first]), [GITHUB])).credentials[0]?.access_token).toBe(
      'second-github',
    );
  });

  it('skips archived credentials and vaults, and answers nothing for a session without vaults or of another tenant', async () => {
    const live = await vault('live');
    const archivedVault = await vault('archived');
    const stale = await bearer(live, GITHUB, 'archived-token');
    await control.rpc.request(V.archiveCredential, { actor: control.admin, vaultId: live, id: stale.id });
    await bearer(archivedVault, GITHUB, 'in-archived-vault');
    // A session names only vaults it can attach: this one is archived after the session named it.
    const session = await sessionOf([live, archivedVault]);
    await control.rpc.request(V.archiveVault, { actor: control.admin, id: archivedVault });
    expect((await resolve(session, [GITHUB])).credentials).toEqual([]);

    const other = await vault('other');
    await bearer(other, GITHUB, 'other-token');
    const withVault = await sessionOf([other]);
    expect((await resolve(withVault, [GITHUB])).credentials.map((c) => c.access_token)).toEqual([
      'other-token',
    ]);
    expect((await resolve(withVault, [GITHUB], 'tenant_elsewhere')).credentials).toEqual([]);
    expect((await resolve(await sessionOf([]), [GITHUB])).credentials).toEqual([]);
  });

  it("keeps a consent token in its caller's consent vault, after the session's vaults, for that caller's sessions only", async () => {
    const CALENDAR = 'https://mcp.calendar.test/mcp';
    // The admin's own API key is another caller than the admin signed in.
    const key = { ...control.admin, apiKeyId: 'key_consent' };
    const store = (actor: typeof control.admin, accessToken: string) =>
      control.rpc.request(M.storeConsent, {
        actor,
        serverName: 'calendar',
        serverUrl: CALENDAR,
        accessToken,
      });
    const first = await store(control.admin, 'consent-1');
    const second = await store(control.admin, 'consent-2');
    expect(second.vault_id).toBe(first.vault_id);
    const keyVault = await store(key, 'key-consent');
    expect(keyVault.vault_id).not.toBe(first.vault_id);

    // The newest token replaces the earlier one: one live credential, and no secret in any reply.
    const listed = await control.rpc.request(V.listCredentials, {
      actor: control.admin,
      vaultId: first.vault_id,
      query: { limit: 10 },
    });
    expect(listed.data.map((c) => c.id)).toEqual([second.credential_id]);
    expect(JSON.stringify(listed)).not.toContain('consent-2');

    const mine = await sessionOf([]);
    expect((await resolve(mine, [CALENDAR])).credentials).toEqual([
      expect.objectContaining({ vault_id: first.vault_id, access_token: 'consent-2' }),
    ]);
    // A vault of the session's own that holds a credential for the server comes first.
    const own = await vault('own');
    await bearer(own, CALENDAR, 'from-own-vault');
    expect((await resolve(await sessionOf([own]), [CALENDAR])).credentials[0]?.access_token).toBe(
      'from-own-vault',
    );
    // Another caller's consent vault serves nothing, even when the session names it.
    const byKey = await sessionOf([], key);
    expect((await resolve(byKey, [CALENDAR])).credentials.map((c) => c.access_token)).toEqual([
      'key-consent',
    ]);
    const naming = await sessionOf([keyVault.vault_id]);
    expect((await resolve(naming, [CALENDAR])).credentials.map((c) => c.access_token)).toEqual(['consent-2']);
  });

  it('records a refresh the token endpoint does not grant as refresh_failed (its webhook event), without the reason', async () => {
    const vaultId = await vault('refreshing');
    const credential = await control.rpc.request(V.createCredential, {
      actor: control.admin,
      vaultId,
      body: {
        auth: {
          type: 'mcp_oauth',
          mcp_server_url: 'https://oauth.refresh.test/mcp',
          access_token: 'stale-access',
          // Loopback: the egress policy refuses it at once, as a token endpoint that is down would fail.
          refresh: {
            client_id: 'cid',
            refresh_token: 'refresh-secret',
            token_endpoint: 'http://127.0.0.1:9/token',
            token_endpoint_auth: { type: 'none' },
          },
        },
      },
    });
    const session = await sessionOf([vaultId]);
    await expect(
      control.rpc.request(M.refresh, {
        tenantId: control.admin.tenantId,
        sessionId: session,
        credentialId: credential.id,
      }),
    ).rejects.toThrow(/refused by the egress policy/);
    const entries = await control.db.prisma.auditLog.findMany({
      where: { resourceType: 'vault_credential', resourceId: credential.id },
    });
    expect(entries.map((e) => e.action).sort()).toEqual(['create', 'refresh_failed']);
    const failed = entries.find((e) => e.action === 'refresh_failed')!;
    expect(failed.details).toEqual({ vaultId, sessionId: session });
    expect(JSON.stringify(failed)).not.toContain('refresh-secret');
  });

  it('gives a worker the environment_variable credentials of the session, the first vault winning per variable', async () => {
    const envCredential = (vaultId: string, name: string, value: string) =>
      control.rpc.request(V.createCredential, {
        actor: control.admin,
        vaultId,
        body: {
          auth: {
            type: 'environment_variable',
            secret_name: name,
            secret_value: value,
            networking: { type: 'limited', allowed_hosts: ['api.test'] },
          },
        },
      });
    const [first, second] = [await vault('env first'), await vault('env second')];
    const winner = await envCredential(first, 'API_TOKEN', 'first-value');
    await envCredential(second, 'API_TOKEN', 'second-value');
    const extra = await envCredential(second, 'OTHER_TOKEN', 'other-value');
    await bearer(first, GITHUB, 'not-an-env-var');
    const session = await sessionOf([first, second]);

    const { credentials } = await control.rpc.request(E.resolve, {
      tenantId: control.admin.tenantId,
      sessionId: session,
    });
    expect(credentials.sort((a, b) => a.secret_name.localeCompare(b.secret_name))).toEqual([
      {
        credential_id: winner.id,
        secret_name: 'API_TOKEN',
        secret_value: 'first-value',
        networking: { type: 'limited', allowed_hosts: ['api.test'] },
        injection_location: { header: true, body: false },
      },
      expect.objectContaining({
        credential_id: extra.id,
        secret_name: 'OTHER_TOKEN',
        secret_value: 'other-value',
      }),
    ]);
    expect(
      (await control.rpc.request(E.resolve, { tenantId: 'tenant_elsewhere', sessionId: session }))
        .credentials,
    ).toEqual([]);
  });
});
