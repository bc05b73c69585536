import type { Actor, ListSessionsParams, Page, Session } from '@agentry/contracts';
import { resumableAfter } from '@agentry/platform';
import type { Prisma, Session as SessionRow } from '@agentry/db';
import { toSessionDto } from './session.mapper.js';
import { decodeSessionCursor, encodeSessionCursor } from './session-page-cursor.js';
import type { SessionFilter, SessionsRepository } from './sessions.repository.js';

/**
 * One page of sessions in either direction. A `next` cursor reads on past its edge row in the list
 * order; a `prev` cursor reads back before it (fetched in reverse, then flipped), so both pages come
 * out in the requested order. `prev_page` is null on the first page.
 */
export async function listSessionsPage(
  repo: SessionsRepository,
  actor: Actor,
  query: ListSessionsParams,
): Promise<Page<Session>> {
  const order = query.order ?? 'desc';
  const cursor = decodeSessionCursor(query.page);
  const backwards = cursor?.direction === 'prev';
  const readOrder = backwards ? (order === 'asc' ? 'desc' : 'asc') : order;
  const edge = cursor ? (readOrder === 'asc' ? { gt: cursor.id } : { lt: cursor.id }) : undefined;
  const rows = await repo.list(actor, toFilter(query), { limit: query.limit + 1, edge, order: readOrder });
  const more = rows.length > query.limit;
  const page: SessionRow[] = rows.slice(0, query.limit);
  if (backwards) page.reverse();
  const first = page[0];
  const last = page.at(-1);
  const hasNext = backwards ? true : more;
  const hasPrev = backwards ? more : cursor !== undefined;
  const result = {
    data: page.map(toSessionDto),
    next_page: hasNext && last ? encodeSessionCursor('next', last.id) : null,
    prev_page: hasPrev && first ? encodeSessionCursor('prev', first.id) : null,
  };
  // Cut short for the bus, a page keeps its first items: `prev_page` still holds, `next_page` moves up.
  return resumableAfter(result, (session) => encodeSessionCursor('next', session.id));
}

function toFilter(query: ListSessionsParams): SessionFilter {
  const createdAt: Prisma.DateTimeFilter = {};
  if (query['created_at[gt]']) createdAt.gt = query['created_at[gt]'];
  if (query['created_at[gte]']) createdAt.gte = query['created_at[gte]'];
  if (query['created_at[lt]']) createdAt.lt = query['created_at[lt]'];
  if (query['created_at[lte]']) createdAt.lte = query['created_at[lte]'];
  return {
    agentId: query.agent_id,
    agentVersion: query.agent_version,
    deploymentId: query.deployment_id,
    memoryStoreId: query.memory_store_id,
    statuses: query.statuses,
    includeArchived: query.include_archived ?? false,
    createdAt: Object.keys(createdAt).length ? createdAt : undefined,
  };
}
