import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { hostMcpOverHttp } from './mcp-http-host.js';

export const CONSENT_URL = 'https://auth.example.test/oauth/consent?client=agentry&state=calendar';

export interface ConsentMcpServer {
  url: string;
  /**
   * Calls of `read_calendar`, each with what the client answered when the server asked for consent, and the
   * bearer token it was made with, when it carried one the server issued.
   */
  calls: Array<{ asked: boolean; answer?: string; token?: string }>;
  /** The user completes the consent at the link (what the OAuth provider would tell the server). */
  grant(): void;
  /**
   * One person completes the consent at the link, and the provider hands the application they return to a
   * token for them: a call that carries it as `Authorization: Bearer` needs no consent, whatever `grant`.
   */
  issueToken(): string;
  revoke(): void;
  close(): Promise<void>;
}

/**
 * An MCP server on the official SDK (Streamable HTTP, loopback) whose `read_calendar` needs the user's consent:
 * until it is granted, a call asks the client for it with a URL-mode elicitation and then fails.
 */
export async function startConsentMcpServer(): Promise<ConsentMcpServer> {
  const calls: ConsentMcpServer['calls'] = [];
  let granted = false;
  const tokens = new Set<string>();

  const mcpServer = () => {
    const server = new Server({ name: 'consent-test', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        {
          name: 'read_calendar',
          description: "Reads the user's calendar (needs their consent)",
          inputSchema: { type: 'object', properties: { day: { type: 'string' } } },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const bearer = /^Bearer (.+)$/.exec(String(extra.requestInfo?.headers.authorization ?? ''))?.[1];
      const token = bearer && tokens.has(bearer) ? bearer : undefined;
      const call: ConsentMcpServer['calls'][number] = { asked: !granted && !token };
      if (token) call.token = token;
      calls.push(call);
      if (!call.asked) {
        const requested = request.params.arguments?.day;
        const day = typeof requested === 'string' ? requested : 'today';
        return { content: [{ type: 'text', text: `calendar for ${day}: standup at 9` }] };
      }
      const answer = await server.elicitInput(
        {
          mode: 'url',
          message: 'Allow Agentry to read your calendar',
          elicitationId: randomUUID(),
          url: CONSENT_URL,
        },
        { relatedRequestId: extra.requestId },
      );
      call.answer = answer.action;
      return { isError: true, content: [{ type: 'text', text: 'consent is needed first' }] };
    });
    return server;
  };

  const host = await hostMcpOverHttp({ newServer: mcpServer });
  return {
    url: host.url,
    calls,
    grant: () => {
      granted = true;
    },
    revoke: () => {
      granted = false;
    },
    issueToken: () => {
      const token = `cal-token-${randomUUID()}`;
      tokens.add(token);
      return token;
    },
    close: () => host.close(),
  };
}
