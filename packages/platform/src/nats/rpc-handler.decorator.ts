import { UseInterceptors } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcParsedRequest, RpcSubject } from '@agentry/contracts';
import type { z } from 'zod';
import { RpcEnvelopeInterceptor } from './rpc-envelope.interceptor.js';
import { RpcPayloadPipe } from './rpc-payload.pipe.js';

type AnySubject = RpcSubject<z.ZodType, z.ZodType>;

/**
 * Marks a method as the handler of a catalog subject: it answers the subject's pattern in the reply
 * envelope, and its first parameter receives the request parsed against the subject's schema (a bad one is
 * a typed 400 before the method runs). The compiler refuses a method whose parameter does not accept that
 * parsed request. The envelope comes with the decorator rather than from a global interceptor because the
 * services are hybrid applications, whose connected microservice does not inherit global enhancers.
 */
export function RpcHandler<S extends AnySubject>(subject: S) {
  return <M extends (request: RpcParsedRequest<S>) => unknown>(
    target: object,
    method: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ): void => {
    MessagePattern(subject.subject)(target, method, descriptor);
    UseInterceptors(RpcEnvelopeInterceptor)(target, method, descriptor);
    Payload(new RpcPayloadPipe(subject))(target, method, 0);
  };
}
