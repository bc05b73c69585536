import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { AppError } from '@agentry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Lets `multipart/form-data` uploads through (the SDK's `files.upload` sends them). The body is kept
 * raw, within the server's body limit, and parsed per request by the platform's own `FormData`.
 */
@Injectable()
export class MultipartBodyParser implements OnModuleInit {
  constructor(private readonly host: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.host.httpAdapter.getInstance<FastifyInstance>();
    if (fastify.hasContentTypeParser('multipart/form-data')) return;
    fastify.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
  }
}

/** The form of a multipart request, or INVALID_REQUEST when the body is not one. */
export async function readMultipartForm(request: FastifyRequest): Promise<FormData> {
  const contentType = request.headers['content-type'] ?? '';
  if (!contentType.startsWith('multipart/form-data') || !Buffer.isBuffer(request.body)) {
    throw new AppError('INVALID_REQUEST', 'body: expected multipart/form-data with a "file" part');
  }
  try {
    return await new Response(new Uint8Array(request.body), {
      headers: { 'content-type': contentType },
    }).formData();
  } catch (cause) {
    throw new AppError('INVALID_REQUEST', 'body: malformed multipart/form-data', { cause });
  }
}
