import { UseFilters } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcParsedRequest, RpcSubject } from '@agentry/contracts';
import type { z } from 'zod';
import { registerRpcRoute } from './rpc-answer.js';
import { RpcErrorPassthroughFilter } from './rpc-error-passthrough.filter.js';

type AnySubject = RpcSubject<z.ZodType, z.ZodType>;

/**
 * Marks a method as the handler of a catalog subject: it answers the subject's pattern in the reply
 * envelope, and its first parameter receives the request parsed against the subject's schema (a bad one is
 * a typed 400 before the method runs). The compiler refuses a method whose parameter does not accept that
 * parsed request. The transport does the parsing and the envelope itself (`answerRpc`) rather than through
 * a Nest pipe and interceptor, whose per-request observables cost more than the work of most handlers; the
 * method's error reaches it unchanged through {@link RpcErrorPassthroughFilter}.
 */
export function RpcHandler<S extends AnySubject>(subject: S) {
  return <M extends (request: RpcParsedRequest<S>) => unknown>(
    target: object,
    method: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ): void => {
    MessagePattern(subject.subject)(target, method, descriptor);
    Payload()(target, method, 0);
    UseFilters(new RpcErrorPassthroughFilter())(target, method, descriptor);
    registerRpcRoute(subject);
  };
}
