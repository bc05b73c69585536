import type { MessageHandler, NatsContext } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import type { Logger } from '../logging/logger.js';
import { answerRpc, rpcRouteOf } from './rpc-answer.js';
import { replyWithinPayload } from './reply-within-payload.js';

/** What goes back on the wire: the packet a Nest NATS client reads (`response`, or `err` for a transport error). */
export type ReplyPacket = { id?: string; response?: unknown; err?: unknown; isDisposed: true };

export interface RequestToAnswer {
  /** The catalog subject the handler is registered under. */
  pattern: string;
  handler: MessageHandler;
  packet: { id?: string; data: unknown };
  ctx: NatsContext;
  /** The subject as it travelled (with the installation prefix), for logs and metrics. */
  wireSubject: string;
  logger: Logger;
  /** The server's `max_payload`, when the connection has heard it. */
  maxPayload: number | undefined;
}

/**
 * The one way a request is answered. An `@RpcHandler` subject's request is parsed against its schema and
 * its value or typed error rides in the reply envelope (`answerRpc`); a plain `@MessagePattern` handler's
 * value is sent as it returned it, and its failure is a transport error. Either reply is then fitted to
 * the bus: a page the handler marked resumable keeps its leading items, anything else too large becomes a
 * PAYLOAD_TOO_LARGE envelope, so the caller hears at once instead of waiting for its timeout.
 */
export async function answerRequest(request: RequestToAnswer): Promise<ReplyPacket> {
  const { pattern, handler, packet, ctx } = request;
  const call = async (data: unknown): Promise<unknown> => settled(await handler(data, ctx));
  const route = rpcRouteOf(pattern);
  let reply: ReplyPacket;
  if (route) {
    const response = await answerRpc(route, packet.data, call, request.wireSubject, request.logger);
    reply = { id: packet.id, response, isDisposed: true };
  } else {
    reply = await answerPlain(call, packet);
  }
  return replyWithinPayload(reply, request.maxPayload);
}

async function answerPlain(
  call: (data: unknown) => Promise<unknown>,
  packet: { id?: string; data: unknown },
): Promise<ReplyPacket> {
  try {
    return { id: packet.id, response: await call(packet.data), isDisposed: true };
  } catch (error) {
    return { id: packet.id, err: transportError(error), isDisposed: true };
  }
}

/** A handler's value: Nest hands back an observable when an interceptor or exception filter ran. */
function settled(result: unknown): Promise<unknown> {
  return isObservable(result) ? lastValueFrom(result, { defaultValue: undefined }) : Promise.resolve(result);
}

/** What Nest's own exception filter leaves of an error (`{ status, message }`); nothing more leaves the process. */
function transportError(error: unknown): unknown {
  if (typeof error === 'object' && error !== null && 'status' in error) return error;
  return { status: 'error', message: 'Internal server error' };
}
