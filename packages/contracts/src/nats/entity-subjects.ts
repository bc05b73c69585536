import { z } from 'zod';
import { pageSchema } from '../common/paging.js';
import { Scoped } from './request-fields.js';
import { rpcSubject } from './subject.js';

type NoFields = Record<never, never>;

/**
 * The request/reply subjects of one entity under `prefix` (`control.vault` → `control.vault.create`, …), so
 * each catalog names only what is its own: its schemas and the verbs only it has. `scope` holds the fields of
 * every request (with the parent's id for a nested entity); a request about one item adds its `id`.
 * Shared by the entity catalogs and kept out of the barrels, like the request fields.
 */
export function entitySubjects<Reply extends z.ZodType, Scope extends z.ZodRawShape = typeof Scoped>(
  prefix: string,
  reply: Reply,
  scope: Scope = Scoped as unknown as Scope,
) {
  const one = { ...scope, id: z.string().min(1) };

  /** `<prefix>.<verb>` on the whole entity (create, upload, …), answering `answer`. */
  const onScope = <Answer extends z.ZodType, Fields extends z.ZodRawShape = NoFields>(
    verb: string,
    answer: Answer,
    fields?: Fields,
  ) => rpcSubject(`${prefix}.${verb}`, z.object({ ...scope, ...(fields as Fields) }), answer);

  /** `<prefix>.<verb>` on one item named by `id` (archive, delete, pause, …), answering the item by default. */
  const onItem = <Answer extends z.ZodType = Reply, Fields extends z.ZodRawShape = NoFields>(
    verb: string,
    answer?: Answer,
    fields?: Fields,
  ) =>
    rpcSubject(`${prefix}.${verb}`, z.object({ ...one, ...(fields as Fields) }), (answer ?? reply) as Answer);

  return {
    onScope,
    onItem,
    /** `<prefix>.create`: a new item from `body`. */
    create: <Body extends z.ZodType, Fields extends z.ZodRawShape = NoFields>(body: Body, fields?: Fields) =>
      onScope('create', reply, { body, ...(fields as Fields) }),
    /** `<prefix>.get`: one item (`fields` such as a `query` narrow what it shows). */
    get: <Fields extends z.ZodRawShape = NoFields>(fields?: Fields) => onItem('get', reply, fields),
    /** `<prefix>.update`: one item changed by `body`. */
    update: <Body extends z.ZodType, Fields extends z.ZodRawShape = NoFields>(body: Body, fields?: Fields) =>
      onItem('update', reply, { body, ...(fields as Fields) }),
    /** `<prefix>.list`: a page of items (of `item`, where the list shows less than the item). */
    list: <Query extends z.ZodType, Item extends z.ZodType = Reply>(query: Query, item?: Item) =>
      onScope('list', pageSchema((item ?? reply) as Item), { query }),
  };
}
