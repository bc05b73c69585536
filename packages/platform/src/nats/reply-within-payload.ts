import { AppError } from '@agentry/contracts';
import { cutPageToFit } from '../paging/page-byte-budget.js';
import { toErrorBody } from './rpc-envelope.js';

type ReplyPacket = { response?: unknown; err?: unknown; isDisposed?: boolean; id?: string };
type Publish = (packet: ReplyPacket) => unknown;

/** NATS's own default, for a connection that has not heard the server's INFO yet. */
const DEFAULT_MAX_PAYLOAD = 1_048_576;
/** Room for what the transport adds around the serialized packet (headers, the reply subject's framing). */
const ENVELOPE_HEADROOM_BYTES = 4096;

/**
 * Publishes a reply that the bus can carry. A reply over the server's `max_payload` is refused by the
 * client before it is sent, which would leave the caller waiting for its timeout; instead a page keeps
 * only the leading items that fit (its cursor resumes after the last one kept), and any other reply too
 * large becomes a PAYLOAD_TOO_LARGE error envelope, so the caller hears at once.
 */
export function replyWithinPayload(publish: Publish, maxPayload: () => number | undefined): Publish {
  return (packet) => {
    try {
      return publish(packet);
    } catch (error) {
      if (!isOverMaxPayload(error)) throw error;
      return publish(fittedPacket(packet, maxPayload() ?? DEFAULT_MAX_PAYLOAD));
    }
  };
}

/** `packet` cut or turned into an error so that it serializes within `maxPayload` bytes. */
export function fittedPacket(packet: ReplyPacket, maxPayload: number): ReplyPacket {
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
