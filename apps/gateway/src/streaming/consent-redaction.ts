import { Injectable } from '@nestjs/common';
import {
  ControlSubjects,
  type Actor,
  type CallerIdentity,
  type SessionEvent,
  type StoredEvent,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';

/** The text a withheld link reads as wherever the server's message repeated it. */
const LINK_REMOVED = '[link removed]';

/**
 * Whether `actor` is the session's creator: the same API key, or the same user signed in (not through a key).
 * A session with no recorded creator has no one to keep the link for: every caller that may read it sees it.
 */
export function isCreator(actor: Actor, createdBy: CallerIdentity | null | undefined): boolean {
  if (!createdBy) return true;
  if (createdBy.type === 'role_actor') return actor.apiKeyId === createdBy.role_id;
  return actor.apiKeyId === null && actor.userId === createdBy.subject;
}

/**
 * An `agent.mcp_elicitation` as a caller other than the session's creator reads it: `request.url` is null,
 * `request.url_redacted` is true, and the link is taken out of the message. Other events are unchanged.
 */
export function withheldConsent(event: SessionEvent): SessionEvent {
  if (event.type !== 'agent.mcp_elicitation') return event;
  const { request } = event;
  const message = request.url ? request.message.split(request.url).join(LINK_REMOVED) : request.message;
  return { ...event, request: { ...request, message, url: null, url_redacted: true } };
}

function withheldStored(stored: StoredEvent): StoredEvent {
  return stored.event.type === 'agent.mcp_elicitation'
    ? { ...stored, event: withheldConsent(stored.event) }
    : stored;
}

/**
 * Consent links are the session creator's: the log keeps them, and the gateway withholds them, per caller,
 * from every other reader (event lists, SSE streams, `/v1` and `/api` alike).
 */
@Injectable()
export class ConsentRedaction {
  constructor(private readonly rpc: RpcClient) {}

  /** Whether the caller reads consent links of the session (looked up only when a page holds one). */
  async reveals(actor: Actor, sessionId: string): Promise<boolean> {
    const session = await this.rpc.request(ControlSubjects.getSession, { actor, id: sessionId });
    return isCreator(actor, session.created_by);
  }

  /** The page as the caller may read it. */
  async forCaller(actor: Actor, sessionId: string, events: StoredEvent[]): Promise<StoredEvent[]> {
    if (!events.some((s) => s.event.type === 'agent.mcp_elicitation')) return events;
    if (await this.reveals(actor, sessionId)) return events;
    return events.map(withheldStored);
  }
}
