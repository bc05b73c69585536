import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  createTestDatabase,
  launchChromium,
  launchPlatform,
  type RunningPlatform,
  type TestDatabase,
} from '@agentry/testing';
import { choose, expectAccessible, snap } from './console-page.js';

/** A page of a list endpoint: the tests read only the ids of its items. */
interface Listed {
  data: { id: string }[];
}

const SCRIPT = {
  chunkSize: 4,
  turns: [
    {
      match: '^write a note',
      reply: [
        {
          text: 'I will write it.',
          toolCall: { name: 'write', input: { file_path: 'note.txt', content: 'hello' } },
        },
        'The note is written, as you approved.',
      ],
    },
  ],
};

const LOOKUP_TOOL = {
  type: 'custom',
  name: 'lookup',
  description: 'Looks a word up',
  input_schema: { type: 'object', properties: { word: { type: 'string' } } },
};

/**
 * The console in Chromium on the running platform, as a person uses it: sign in, make an agent whose
 * tools ask first, talk to it, approve its tool call, see the answer and the cost, edit the agent and
 * compare versions; a viewer sees no edit controls. Every page passes axe-core.
 */
describe('the web console', () => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let browser: Browser;
  let page: Page;
  let consoleUrl: string;
  let agentUrl: string;
  let sessionUrl: string;
  let admin: ApiClient;

  beforeAll(async () => {
    db = await createTestDatabase();
    platform = await launchPlatform({ databaseUrl: db.url });
    consoleUrl = `${platform.gatewayUrl}/console`;
    admin = await new ApiClient(platform.gatewayUrl).login('admin', 'admin');
    const viewer = await admin.post('/api/admin/users', {
      username: 'vera',
      password: 'viewer-pass-1',
      role: 'viewer',
    });
    expect(viewer.status).toBe(200);
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    await db?.drop();
  });

  const signIn = async (target: Page, username: string, password: string) => {
    await target.goto(`${consoleUrl}/`);
    await target.getByLabel('User name').fill(username);
    await target.getByLabel(/^Password/).fill(password);
    await target.getByRole('button', { name: 'Sign in', exact: true }).click();
    await target.getByRole('heading', { name: 'Agents' }).waitFor();
  };

  it('signs in', async () => {
    await page.goto(`${consoleUrl}/`);
    await page.getByRole('heading', { name: 'Sign in to Agentry' }).waitFor();
    await expectAccessible(page, 'sign-in');
    await snap(page, 'sign-in');
    await page.getByLabel('User name').fill('admin');
    await page.getByLabel(/^Password/).fill('wrong');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').waitFor();
    await signIn(page, 'admin', 'admin');
    await page.getByText('No agents yet').waitFor();
    await expectAccessible(page, 'agents (empty)');
    await snap(page, 'agents-empty');
  });

  it('creates an agent whose tools always ask', async () => {
    await page.getByRole('link', { name: 'New agent' }).click();
    await page.getByLabel('Name').fill('note taker');
    await page.getByLabel('System prompt').fill('You take notes.');
    await choose(page, 'Default tool permission policy', 'Always ask (approve each call)');
    await page.getByLabel('web_search permission').selectOption('disabled');
    await page.getByLabel('Other tools').fill(JSON.stringify([LOOKUP_TOOL]));
    await page.getByLabel('Model script (scripted model only)').fill(JSON.stringify(SCRIPT));
    await expectAccessible(page, 'agent form');
    await snap(page, 'agent-form');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { name: 'note taker' }).waitFor();
    await expect(page.getByText('"always_ask"').count()).resolves.toBe(1);
    await expect(page.getByText('"enabled": false').count()).resolves.toBe(1);
    await expect(page.getByText('"name": "lookup"').count()).resolves.toBe(1);
    agentUrl = page.url();
    await expectAccessible(page, 'agent');
    await snap(page, 'agent-created');
  });

  it('starts a session, streams the answer, approves the tool call and shows the result and cost', async () => {
    await page.getByRole('link', { name: 'Environments' }).click();
    await page.getByText('No environments', { exact: true }).waitFor();
    await expectAccessible(page, 'environments (empty)');
    await page.getByLabel('Name').fill('workspace');
    await page.getByLabel(/^Type/).fill('remote');
    await page.getByRole('button', { name: 'New environment' }).click();
    await page.getByRole('cell', { name: 'workspace' }).waitFor();
    await snap(page, 'environment-created');

    await page.getByRole('link', { name: 'Sessions' }).click();
    await choose(page, 'Agent', 'note taker');
    await choose(page, 'Environment', 'workspace');
    await expectAccessible(page, 'sessions');
    await page.getByRole('button', { name: 'Start session' }).click();
    await page.getByRole('button', { name: 'Download transcript' }).waitFor();
    sessionUrl = page.url();
    await page.getByLabel('Message').fill('write a note for me');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('I will write it.').waitFor();
    const approve = page.getByRole('button', { name: 'Approve' });
    await approve.waitFor();
    await page.getByTestId('session-status').filter({ hasText: 'requires_action' }).waitFor();
    await expectAccessible(page, 'session waiting for approval');
    await snap(page, 'session-approval');
    await approve.click();
    await page.getByText('The note is written, as you approved.').waitFor();
    // The answer came as token previews before its final event.
    const deltas = await page.locator('[data-streamed-deltas]').getAttribute('data-streamed-deltas');
    expect(Number(deltas)).toBeGreaterThan(0);
    await page.getByRole('article', { name: /^Tool result/ }).waitFor();
    await page.getByTestId('session-status').filter({ hasText: 'end_turn' }).waitFor();
    await page
      .getByTestId('session-cost')
      .filter({ hasText: /Cost \$\d/ })
      .waitFor();
    await expectAccessible(page, 'session answered');
    await snap(page, 'session-answered');
    await page.getByRole('tab', { name: 'Timeline' }).click();
    await page.getByRole('list', { name: 'Timeline' }).waitFor();
    await expectAccessible(page, 'timeline');
    await page.getByRole('tab', { name: 'Tools' }).click();
    await page.getByRole('cell', { name: 'write' }).waitFor();
    await snap(page, 'session-tools');
  });

  it('edits the agent and shows version 2 in the diff', async () => {
    await page.goto(agentUrl);
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('System prompt').fill('You take short notes.');
    await page.getByRole('button', { name: 'Save new version' }).click();
    await page.getByText('version 2', { exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Versions' }).click();
    const diff = page.getByTestId('version-diff');
    await diff.waitFor();
    await expect(page.getByText('Changes from version 1 to version 2').count()).resolves.toBe(1);
    const text = (await diff.textContent()) ?? '';
    expect(text).toContain('-   "system": "You take notes."');
    expect(text).toContain('+   "system": "You take short notes."');
    // Saving from the form keeps the tools it was loaded with: the per-tool choice and the custom tool.
    expect(text).not.toMatch(/^[-+].*("enabled"|"lookup"|"web_search")/m);
    await expectAccessible(page, 'version diff');
    await snap(page, 'agent-version-diff');
  });

  it('adds a vault credential whose secret is never shown again', async () => {
    await page.getByRole('link', { name: 'Vaults', exact: true }).click();
    await page.getByText('No vaults', { exact: true }).waitFor();
    await page.getByLabel('Name').fill('keys');
    await page.getByRole('button', { name: 'New vault' }).click();
    const row = page.getByRole('row', { name: /keys/ });
    await row.waitFor();
    const vaultId = (await row.getByRole('cell').nth(1).textContent())!;
    expect(vaultId).toMatch(/^vlt_/);
    await page.getByLabel('Vault ID').fill(vaultId);
    await page.getByLabel('MCP server URL').fill('https://mcp.example.test/mcp');
    await page.getByLabel('Bearer token').fill('tok-written-once');
    await page.getByRole('button', { name: 'Add credential' }).click();
    await expect.poll(() => page.getByLabel('Bearer token').inputValue(), { timeout: 15_000 }).toBe('');
    expect(await page.content()).not.toContain('tok-written-once');
    await expectAccessible(page, 'vaults');
    await snap(page, 'vault-credential');
  });

  it('passes axe-core on every other page, with their empty states', async () => {
    for (const [link, heading] of [
      ['Memory stores', 'Memory stores'],
      ['Skills', 'Skills'],
      ['Files', 'Files'],
      ['Deployments', 'Deployments'],
      ['Deployment runs', 'Deployment runs'],
      ['Hands', 'Hands'],
      ['Usage', 'Usage'],
    ] as const) {
      await page.getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await page.locator('[role="status"]').first().waitFor({ state: 'detached' });
      await expectAccessible(page, heading);
    }
    await snap(page, 'usage');
    const narrow = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await narrow.goto(`${consoleUrl}/`);
    await narrow.evaluate(
      (stored) => localStorage.setItem('agentry.console.credentials', stored),
      await page.evaluate(() => localStorage.getItem('agentry.console.credentials')!),
    );
    await narrow.goto(sessionUrl);
    await narrow.getByText('The note is written, as you approved.').waitFor();
    await expectAccessible(narrow, 'session on a phone');
    await snap(narrow, 'session-phone');
    await narrow.close();
  });

  it('browses a memory store: its memories, their versions, and redacting one', async () => {
    await page.getByRole('link', { name: 'Memory stores', exact: true }).click();
    await page.getByLabel('Name').fill('team notes');
    await page.getByRole('button', { name: 'New memory store' }).click();
    await page.getByRole('link', { name: 'team notes' }).click();
    await page.getByRole('heading', { name: 'team notes' }).waitFor();
    await page.getByText('No memories').waitFor();
    await page.getByLabel('Path').fill('/ops/db.md');
    await page.getByLabel('Content').fill('The database password is hunter2');
    await page.getByRole('button', { name: 'Add memory' }).click();
    await page.getByRole('button', { name: /\/ops\/db\.md/ }).click();
    await page.getByLabel('Current content').filter({ hasText: 'hunter2' }).waitFor();

    const storeId = page.url().split('/').at(-1)!;
    const memories = await admin.get<Listed>(`/v1/memory_stores/${storeId}/memories`);
    const memoryId = memories.body.data[0]!.id;
    const updated = await admin.post(`/v1/memory_stores/${storeId}/memories/${memoryId}`, {
      content: 'The password was rotated.',
    });
    expect(updated.status).toBe(200);
    await page.reload();
    await page.getByRole('button', { name: /\/ops\/db\.md/ }).click();
    const versions = page.getByRole('list', { name: 'Versions' }).getByRole('listitem');
    await expect.poll(() => versions.count(), { timeout: 15_000 }).toBe(2);
    await expectAccessible(page, 'memory store');
    await snap(page, 'memory-versions');

    const first = versions.filter({ hasText: 'created' });
    await first.getByRole('button', { name: 'Redact' }).click();
    // Redaction erases the memory's content in every version (a leaked secret is usually in several).
    await expect.poll(() => versions.filter({ hasText: 'redacted' }).count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => page.getByLabel('Current content').textContent()).toBe('');
    expect(await page.content()).not.toContain('hunter2');
    await snap(page, 'memory-redacted');
  });

  it('creates a deployment on a cron schedule and runs it by hand', async () => {
    const environments = await admin.get<Listed>('/v1/environments');
    const environmentId = environments.body.data[0]!.id;
    await page.getByRole('link', { name: 'Deployments', exact: true }).click();
    await page.getByText('No deployments', { exact: true }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('morning notes');
    await page.getByLabel('Agent ID').fill(agentUrl.split('/').at(-1)!);
    await page.getByLabel('Environment ID').fill(environmentId);
    await page.getByLabel(/^Cron expression/).fill('0 6 * * 1-5');
    await page.getByLabel('First message').fill('write a note about the day');
    await page.getByRole('button', { name: 'New deployment' }).click();
    const row = page.getByRole('row', { name: /morning notes/ });
    await row.filter({ hasText: '0 6 * * 1-5' }).waitFor();
    await row.getByRole('button', { name: 'Run now' }).click();
    await page.getByText('Started.').waitFor();
    await expectAccessible(page, 'deployments');
    await snap(page, 'deployment');
    const runs = await admin.get<Listed>('/v1/deployment_runs');
    expect(runs.body.data).toHaveLength(1);
  });

  it('shows a viewer no edit controls', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const viewer = await context.newPage();
    await signIn(viewer, 'vera', 'viewer-pass-1');
    await viewer.getByRole('link', { name: 'note taker' }).waitFor();
    await expect(viewer.getByRole('link', { name: 'New agent' }).count()).resolves.toBe(0);
    await expectAccessible(viewer, 'agents (viewer)');
    await viewer.goto(agentUrl);
    await viewer.getByRole('heading', { name: 'note taker' }).waitFor();
    await expect(viewer.getByRole('link', { name: 'Edit' }).count()).resolves.toBe(0);
    await expect(viewer.getByRole('button', { name: 'Archive' }).count()).resolves.toBe(0);
    await viewer.goto(sessionUrl);
    await viewer.getByText('The note is written, as you approved.').waitFor();
    await expect(viewer.getByLabel('Message').count()).resolves.toBe(0);
    await expect(viewer.getByRole('button', { name: 'Send' }).count()).resolves.toBe(0);
    await expectAccessible(viewer, 'session (viewer)');
    await snap(viewer, 'viewer-session');
    await context.close();
  });
});
