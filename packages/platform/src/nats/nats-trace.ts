import { context, type Attributes, type Context } from '@opentelemetry/api';
import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import { contextFromCarrier, traceCarrier } from '../telemetry/trace-context.js';

// The W3C fields (`traceparent`, `tracestate`) travel as NATS headers, so payloads and their schemas
// never see them.

/** Headers carrying the active trace context, or undefined when nothing is traced (no header block at all). */
export function traceHeaders(from: Context = context.active()): MsgHdrs | undefined {
  const carrier = Object.entries(traceCarrier(from));
  if (carrier.length === 0) return undefined;
  const headers = natsHeaders();
  for (const [key, value] of carrier) headers.set(key, value);
  return headers;
}

/** The sender's context from a message's headers; a message without them starts a new trace. */
export function contextFromHeaders(headers: MsgHdrs | undefined): Context {
  const carrier: Record<string, string> = {};
  // Header names are matched case-insensitively: another client may send `Traceparent`.
  for (const key of headers?.keys() ?? []) carrier[key.toLowerCase()] = headers!.get(key);
  return contextFromCarrier(carrier);
}

/** Messaging semantic-convention attributes of a NATS span. */
export function natsSpanAttributes(subject: string, operation: 'send' | 'process' | 'receive'): Attributes {
  return {
    'messaging.system': 'nats',
    'messaging.destination.name': subject,
    'messaging.operation.type': operation,
  };
}
