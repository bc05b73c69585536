import { StreamEventsParamsSchema } from '@agentry/contracts';
import { z } from 'zod';
import { parseOrThrow } from '../http/zod-params.js';

const DeltasQuerySchema = StreamEventsParamsSchema.pick({ event_deltas: true });
const SeqSchema = z.coerce.number().int().nonnegative('must be a non-negative event sequence number');

/** Where a stream starts and which previews it adds, from its request; 400 naming the bad part. */
export function streamStart(
  lastEventId: string | undefined,
  afterParam: string | undefined,
  deltasParam: unknown,
) {
  const resume = lastEventId ?? afterParam;
  const after =
    resume === undefined || resume === ''
      ? null
      : parseOrThrow(SeqSchema, resume, lastEventId ? 'Last-Event-ID' : 'after');
  const deltas = parseOrThrow(DeltasQuerySchema, { event_deltas: deltasParam }, 'query').event_deltas ?? [];
  return { after, deltas };
}
