import type { FastifyReply } from 'fastify';

/** The next-page cursor of an `/api` list; the body stays a bare array as AgentScope clients expect. */
export const NEXT_PAGE_HEADER = 'x-next-page';

/** Renders a `/v1` page as an `/api` list: the mapped items, with the cursor in a header. */
export function toApiList<T, U>(
  reply: FastifyReply,
  page: { data: T[]; next_page: string | null },
  map: (item: T) => U,
): U[] {
  if (page.next_page) void reply.header(NEXT_PAGE_HEADER, page.next_page);
  return page.data.map(map);
}
