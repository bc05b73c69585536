import { Injectable } from '@nestjs/common';
import {
  AppError,
  McpCredentialSubjects,
  type Actor,
  type InboundEvent,
  type McpServer,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { SqlPool } from '../sql/sql-pool.js';

type Answer = Extract<InboundEvent, { type: 'user.mcp_elicitation_response' }>;

interface SessionOwner {
  created_by_id: string | null;
  created_by_api_key_id: string | null;
  parent_session_id: string | null;
}

/** Whether `actor` is the caller that created the session: the same API key, or the same user signed in. */
function isSessionCreator(actor: Actor, owner: SessionOwner): boolean {
  if (owner.created_by_api_key_id) return actor.apiKeyId === owner.created_by_api_key_id;
  return owner.created_by_id !== null && actor.apiKeyId === null && actor.userId === owner.created_by_id;
}

/**
 * Answers to MCP elicitations before they are recorded. Only the caller that created the session may answer
 * (CMA: the answer is sent signed in as that person), anyone else gets a 403. A token an `accept` carries is
 * handed to control, which keeps it in that caller's consent vault, and the answer is recorded without it.
 */
@Injectable()
export class ElicitationAnswers {
  constructor(
    private readonly sql: SqlPool,
    private readonly rpc: RpcClient,
  ) {}

  async prepare(actor: Actor, sessionId: string, inbound: InboundEvent[]): Promise<InboundEvent[]> {
    const answers = inbound.filter((e): e is Answer => e.type === 'user.mcp_elicitation_response');
    if (answers.length === 0) return inbound;
    const owner = await this.ownerOf(actor, sessionId);
    // A session of another namespace is left to the append, which answers 404. A thread's answers were
    // checked on the session they were sent to.
    if (!owner || owner.parent_session_id !== null) return inbound;
    if ((owner.created_by_id || owner.created_by_api_key_id) && !isSessionCreator(actor, owner))
      throw new AppError(
        'PERMISSION_DENIED',
        `Only the caller that created session ${sessionId} may answer its MCP elicitations`,
        { details: { error_code: 'mcp_elicitation_not_creator' } },
      );
    const prepared: InboundEvent[] = [];
    for (const event of inbound) {
      if (event.type !== 'user.mcp_elicitation_response' || event.response.type !== 'accept') {
        prepared.push(event);
        continue;
      }
      const { credential, ...response } = event.response;
      if (credential) await this.keep(actor, sessionId, event.mcp_elicitation_id, credential.access_token);
      prepared.push({ ...event, response });
    }
    return prepared;
  }

  private async ownerOf(actor: Actor, sessionId: string): Promise<SessionOwner | undefined> {
    const rows = await this.sql.query<SessionOwner>(
      'sessions.owner',
      `SELECT created_by_id, created_by_api_key_id, parent_session_id FROM sessions
        WHERE id = $1 AND (tenant_id, namespace_id) IS NOT DISTINCT FROM ($2, $3)`,
      [sessionId, actor.tenantId, actor.namespaceId],
    );
    return rows.rows[0];
  }

  /** Hands the token to control for the server the elicitation came from (its thread's agent, if a thread's). */
  private async keep(actor: Actor, sessionId: string, elicitationId: string, token: string): Promise<void> {
    const rows = await this.sql.query<{ server: string; spec: { agent?: { mcp_servers?: McpServer[] } } }>(
      'events.elicitation-server',
      `SELECT e.payload->>'mcp_server_name' AS server, s.spec
         FROM session_events e
         JOIN sessions s ON s.id = coalesce(e.payload->>'session_thread_id', e.session_id)
        WHERE e.session_id = $1 AND e.id = $2 AND e.type = 'agent.mcp_elicitation'`,
      [sessionId, elicitationId],
    );
    const row = rows.rows[0];
    const server = row?.spec.agent?.mcp_servers?.find((s) => s.name === row.server);
    if (!row || !server)
      throw new AppError(
        'INVALID_REQUEST',
        `response.credential: the MCP server of elicitation ${elicitationId} is no longer on the agent`,
      );
    await this.rpc.request(McpCredentialSubjects.storeConsent, {
      actor,
      serverName: server.name,
      serverUrl: server.url,
      accessToken: token,
    });
  }
}
