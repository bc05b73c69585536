import { Injectable, type PipeTransform } from '@nestjs/common';
import { invalidRequest, type RpcSubject } from '@agentry/contracts';
import type { z } from 'zod';

/** Parses a NATS request against its catalog schema; a bad payload is a typed INVALID_REQUEST naming each field. */
@Injectable()
export class RpcPayloadPipe<S extends RpcSubject<z.ZodType, z.ZodType>> implements PipeTransform {
  constructor(private readonly subject: S) {}

  transform(value: unknown): z.output<S['request']> {
    const parsed = this.subject.request.safeParse(value);
    if (!parsed.success) throw invalidRequest(parsed.error, { subject: this.subject.subject });
    return parsed.data as z.output<S['request']>;
  }
}
