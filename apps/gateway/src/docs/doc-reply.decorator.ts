import { SetMetadata } from '@nestjs/common';
import type { z } from 'zod';

export const DOC_REPLY = 'agentry:doc-reply';

export interface DocReplyMetadata {
  schema: z.ZodType;
  /** The reply is a bare array of `schema` (the `/api` lists). */
  list: boolean;
}

/** Documents the success body of a route in the OpenAPI document; it changes nothing at runtime. */
export const DocReply = (schema: z.ZodType, options: { list?: boolean } = {}): MethodDecorator =>
  SetMetadata(DOC_REPLY, { schema, list: options.list ?? false } satisfies DocReplyMetadata);
