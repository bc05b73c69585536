import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlStoreSubjects as V, ControlSubjects as S, McpCredentialSubjects as M } from '@agentry/contracts';
import { startControl, type ControlTestApp } from './control-test-app.js';

const GITHUB = 'https://mcp.github.test/mcp';
const LINEAR = 'https://mcp.linear.test/sse';

describe('control: vault credentials matched to MCP servers for a running session', () => {
  let control: ControlTestApp;
  let sessionOf: (vaultIds: string[]) => Promise<string>;
  const vault = async (name: string) => (await control.rpc.request(V.createVault, { actor: control.admin, body: { display_name: name } })).id;
  const bearer = (vaultId: string, url: string, token: string) =>
    control.rpc.request(V.createCredential, { actor: control.admin, vaultId, body: { auth: { type: 'static_bearer', mcp_server_url: url, token } } });
  const resolve = (sessionId: string, serverUrls: string[], tenantId = control.admin.tenantId) =>
    control.rpc.request(M.resolve, { tenantId, sessionId, serverUrls });

  beforeAll(async () => {
    control = await startControl();
    const agent = await control.rpc.request(S.createAgent, { actor: control.admin, body: { name: 'mcp', model: 'scripted' } });
    const env = await control.rpc.request(S.createEnvironment, { actor: control.admin, body: { name: 'mcp', config: { type: 'local' } } });
    sessionOf = async (vaultIds) =>
      (await control.rpc.request(S.createSession, { actor: control.admin, body: { agent: agent.id, environment_id: env.id, vault_ids: vaultIds } })).id;
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
      body: { auth: { type: 'mcp_oauth', mcp_server_url: 'https://oauth.test/mcp', access_token: 'oauth-access' } },
    });
    const session = await sessionOf([first, second]);

    const { credentials } = await resolve(session, [GITHUB, LINEAR, 'https://oauth.test/mcp', 'https://unknown.test/mcp']);
    expect(credentials).toEqual([
      { server_url: GITHUB, credential_id: expect.any(String), type: 'static_bearer', access_token: 'first-github' },
      { server_url: LINEAR, credential_id: expect.any(String), type: 'static_bearer', access_token: 'second-linear' },
      { server_url: 'https://oauth.test/mcp', credential_id: oauth.id, type: 'mcp_oauth', access_token: 'oauth-access' },
    ]);
    expect((await resolve(await sessionOf([second, first]), [GITHUB])).credentials[0]?.access_token).toBe('second-github');
  });

  it('skips archived credentials and vaults, and answers nothing for a session without vaults or of another tenant', async () => {
    const live = await vault('live');
    const archivedVault = await vault('archived');
    const stale = await bearer(live, GITHUB, 'archived-token');
    await control.rpc.request(V.archiveCredential, { actor: control.admin, vaultId: live, id: stale.id });
    await bearer(archivedVault, GITHUB, 'in-archived-vault');
    await control.rpc.request(V.archiveVault, { actor: control.admin, id: archivedVault });
    const session = await sessionOf([live, archivedVault]);
    expect((await resolve(session, [GITHUB])).credentials).toEqual([]);

    const other = await vault('other');
    await bearer(other, GITHUB, 'other-token');
    const withVault = await sessionOf([other]);
    expect((await resolve(withVault, [GITHUB])).credentials.map((c) => c.access_token)).toEqual(['other-token']);
    expect((await resolve(withVault, [GITHUB], 'tenant_elsewhere')).credentials).toEqual([]);
    expect((await resolve(await sessionOf([]), [GITHUB])).credentials).toEqual([]);
  });
});
