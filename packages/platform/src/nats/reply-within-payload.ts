import { AppError } from '@agentry/contracts';
import { cutPageToFit } from '../paging/page-byte-budget.js';
import { toErrorBody } from './rpc-envelope.js';

type ReplyPacket = { response?: unknown; err?: unknown; isDisposed?: boolean; id?: string };

/** NATS's own default, for a connection that has not heard the server's INFO yet. */
const DEFAULT_MAX_PAYLOAD = 1_048_576;
/** Room for what the transport adds around the serialized packet (headers, the reply subject's framing). */
const ENVELOPE_HEADROOM_BYTES = 4096;

/**
 * A reply the bus can carry. A reply over the server's `max_payload` would be refused by the client before
 * it is sent, leaving the caller waiting for its timeout; instead a page the handler marked resumable
 * (`resumableAfter`, or a `{data, hasMore}` page) keeps only its leading items, its cursor resuming after
 * the last one kept, and any other reply too large becomes a PAYLOAD_TOO_LARGE error envelope.
 */
export function replyWithinPayload<P extends ReplyPacket>(packet: P, maxPayload: number | undefined): P {
  const limit = maxPayload ?? DEFAULT_MAX_PAYLOAD;
  if (serializedBytes(packet) <= limit - ENVELOPE_HEADROOM_BYTES) return packet;
  return fittedPacket(packet, limit);
}

/** `packet` cut or turned into an error so that it serializes within `maxPayload` bytes. */
export function fittedPacket<P extends ReplyPacket>(packet: P, maxPayload: number): P {
  const budget = maxPayload - ENVELOPE_HEADROOM_BYTES;
  const envelope = packet.response as { ok?: unknown; data?: unknown } | undefined;
  try {
    if (envelope?.ok === true) {
      const fits = (data: unknown) =>
        serializedBytes({ ...packet, response: { ...envelope, data } }) <= budget;
      const cut = cutPageToFit(envelope.data, fits, budget);
      if (cut !== undefined) return { ...packet, response: { ...envelope, data: cut } };
    }
    const size = serializedBytes(packet);
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `The reply is ${size} bytes, more than the ${budget} bytes a reply between services may carry`,
    );
  } catch (error) {
    return { ...packet, response: { ok: false, error: toErrorBody(error) } };
  }
}

function serializedBytes(packet: ReplyPacket): number {
  return Buffer.byteLength(JSON.stringify(packet), 'utf8');
}

/** The NATS client's refusal of a message over the server's `max_payload`. */
export function isOverMaxPayload(error: unknown): boolean {
  return error instanceof Error && error.message.includes('max_payload');
}
