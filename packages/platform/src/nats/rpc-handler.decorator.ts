import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcParsedRequest, RpcSubject } from '@agentry/contracts';
import type { z } from 'zod';
import { keepingFailures, registerRpcRoute } from './rpc-answer.js';

type AnySubject = RpcSubject<z.ZodType, z.ZodType>;

/**
 * Marks a method as the handler of a catalog subject: it answers the subject's pattern in the reply
 * envelope, and its first parameter receives the request parsed against the subject's schema (a bad one is
 * a typed 400 before the method runs). The compiler refuses a method whose parameter does not accept that
 * parsed request. `PrefixedServerNats` does the parsing and the envelope itself (`answerRpc`) rather than
 * through a Nest pipe and interceptor, whose per-request observables cost more than the work of most handlers.
 */
export function RpcHandler<S extends AnySubject>(subject: S) {
  return <M extends (request: RpcParsedRequest<S>) => unknown>(
    target: object,
    method: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ): void => {
    const original = descriptor.value as ((request: unknown) => unknown) | undefined;
    if (original) {
      descriptor.value = keepingFailures(original) as unknown as M;
      // In place at once: a class decorator that defined the method before calling this one keeps it.
      Object.defineProperty(target, method, descriptor);
    }
    MessagePattern(subject.subject)(target, method, descriptor);
    Payload()(target, method, 0);
    // The context reaches the method too, so its error can be left there (see `keepingFailures`).
    Ctx()(target, method, 1);
    registerRpcRoute(subject);
  };
}
