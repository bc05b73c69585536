import { applyDecorators } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcSubject } from '@agentry/contracts';
import type { z } from 'zod';
import { RpcPayloadPipe } from './rpc-payload.pipe.js';

/** Marks a method as the handler of a catalog subject. */
export function RpcHandler(subject: RpcSubject<z.ZodType, z.ZodType>): MethodDecorator {
  return applyDecorators(MessagePattern(subject.subject));
}

/** Injects the request parsed against the subject's schema. */
export function RpcBody(subject: RpcSubject<z.ZodType, z.ZodType>): ParameterDecorator {
  return Payload(new RpcPayloadPipe(subject));
}
