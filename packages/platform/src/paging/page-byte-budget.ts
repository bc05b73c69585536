import { AppError } from '@agentry/contracts';

type CursorPage<T> = { data: T[]; next_page: string | null; prev_page?: string | null };
type MorePage<T> = { data: T[]; hasMore: boolean };

const RESUME_AFTER = Symbol('resume after');

/**
 * Marks a cursor page with the cursor that resumes right after any one of its items, so a reply too large
 * for the bus can keep only its leading items and still lead the client to the rest. The mark is not
 * enumerable: it never reaches the wire.
 */
export function resumableAfter<P extends CursorPage<unknown>>(
  page: P,
  cursorAfter: (item: P['data'][number]) => string,
): P {
  Object.defineProperty(page, RESUME_AFTER, { value: cursorAfter, enumerable: false });
  return page;
}

/**
 * The longest leading part of `page` for which `fits` holds, or undefined when the value is not a page
 * that can be cut: a cursor page marked with `resumableAfter`, or a `{data, hasMore}` page (whose reader
 * resumes after the last item it got). The page itself is assumed not to fit. A first item that alone does
 * not fit is a PAYLOAD_TOO_LARGE naming it, since no cut could carry it.
 */
export function cutPageToFit(page: unknown, fits: (cut: unknown) => boolean, budgetBytes: number): unknown {
  const cutTo = cutterOf(page);
  if (!cutTo) return undefined;
  const items = (page as { data: unknown[] }).data;
  if (items.length === 0) return undefined;
  let kept = 0;
  let tooMany = items.length;
  while (tooMany - kept > 1) {
    const middle = Math.floor((kept + tooMany) / 2);
    if (fits(cutTo(middle))) kept = middle;
    else tooMany = middle;
  }
  if (kept === 0) {
    const id = (items[0] as { id?: unknown }).id;
    const which = typeof id === 'string' ? `item ${id}` : 'the first item';
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `${which} alone is larger than the ${budgetBytes} bytes a reply may carry`,
    );
  }
  return cutTo(kept);
}

function cutterOf(page: unknown): ((count: number) => unknown) | undefined {
  if (typeof page !== 'object' || page === null || !Array.isArray((page as { data?: unknown }).data))
    return undefined;
  const cursorAfter = (page as { [RESUME_AFTER]?: (item: unknown) => string })[RESUME_AFTER];
  if (cursorAfter) {
    const cursorPage = page as CursorPage<unknown>;
    return (count) => {
      const data = cursorPage.data.slice(0, count);
      return { ...cursorPage, data, next_page: cursorAfter(data[count - 1]) };
    };
  }
  if (typeof (page as { hasMore?: unknown }).hasMore === 'boolean') {
    const morePage = page as MorePage<unknown>;
    return (count) => ({ ...morePage, data: morePage.data.slice(0, count), hasMore: true });
  }
  return undefined;
}
