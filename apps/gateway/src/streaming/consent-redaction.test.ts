import { describe, expect, it } from 'vitest';
import type { Actor, SessionEvent } from '@agentry/contracts';
import { isCreator, withheldConsent } from './consent-redaction.js';
import { RenderedEvent } from './sse-frame.js';

const LINK = 'https://auth.example.test/consent?state=abc';
const actor = (userId: string | null, apiKeyId: string | null = null): Actor => ({
  tenantId: 't',
  namespaceId: 'n',
  userId,
  apiKeyId,
  role: 'member',
});
const elicitation = {
  id: 'sevt_1',
  type: 'agent.mcp_elicitation',
  processed_at: '2026-01-01T00:00:00.000Z',
  created_at: '2026-01-01T00:00:00.000Z',
  mcp_server_name: 'calendar',
  mcp_tool_use_id: 'sevt_0',
  request: { type: 'url', message: `Open ${LINK} to allow`, url: LINK },
  session_thread_id: null,
} as unknown as SessionEvent;

describe('consent links are the session creator’s', () => {
  it('the creator is the same signed-in user, or the same API key; a user’s own key is another caller', () => {
    const person = { type: 'person_actor', issuer: 'agentry', subject: 'user_a' } as const;
    const role = { type: 'role_actor', arn: 'agentry:api_key/key_a', role_id: 'key_a' } as const;
    expect(isCreator(actor('user_a'), person)).toBe(true);
    expect(isCreator(actor('user_b'), person)).toBe(false);
    expect(isCreator(actor('user_a', 'key_a'), person)).toBe(false);
    expect(isCreator(actor('user_a', 'key_a'), role)).toBe(true);
    expect(isCreator(actor('user_a', 'key_b'), role)).toBe(false);
    expect(isCreator(actor('user_a'), role)).toBe(false);
    expect(isCreator(actor('user_b'), null)).toBe(true);
  });

  it('a withheld elicitation has url null, url_redacted true, and no copy of the link in its message', () => {
    expect(withheldConsent(elicitation)).toMatchObject({
      id: 'sevt_1',
      request: { type: 'url', message: 'Open [link removed] to allow', url: null, url_redacted: true },
    });
    expect(JSON.stringify(withheldConsent(elicitation))).not.toContain(LINK);
    const other = { ...elicitation, type: 'agent.message' } as unknown as SessionEvent;
    expect(withheldConsent(other)).toBe(other);
  });

  it('an SSE frame carries the link only for a client that may read it, in both formats', () => {
    const rendered = new RenderedEvent({ seq: 3, event: elicitation }, 'sesn_1');
    expect(rendered.frame('v1')).toContain(LINK);
    expect(rendered.frame('v1', false)).not.toContain(LINK);
    expect(rendered.frame('api', false)).toContain('"url_redacted":true');
    expect(rendered.frame('api', true)).toContain(LINK);
  });
});
