import { encodeCursor } from '@agentry/contracts/v1';
import { resumableAfter } from '@agentry/platform';

/**
 * One page from rows fetched with a look-ahead (`limit + 1`): the extra row only says there is more,
 * and the cursor is the id of the last row shown.
 */
export function toIdPage<R extends { id: string }, T>(
  rows: R[],
  limit: number,
  map: (row: R) => T,
): { data: T[]; next_page: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const items = page.map((row) => ({ item: map(row), id: row.id }));
  const rowIdOf = new Map(items.map(({ item, id }) => [item, id]));
  const result = {
    data: items.map(({ item }) => item),
    next_page: rows.length > limit && last ? encodeCursor(last.id) : null,
  };
  return resumableAfter(result, (item) => encodeCursor(rowIdOf.get(item) ?? ''));
}

/**
 * Marks a page whose items carry the row id its cursor holds, so a reply too large for the bus can end
 * early at any item (see `resumableAfter`).
 */
export function resumableById<P extends { data: { id: string }[]; next_page: string | null }>(page: P): P {
  return resumableAfter(page, (item) => encodeCursor(item.id));
}
