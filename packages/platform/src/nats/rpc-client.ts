import type { ClientProxy } from '@nestjs/microservices';
import { AppError, type RpcRequest, type RpcResponse, type RpcSubject } from '@agentry/contracts';
import { firstValueFrom, timeout } from 'rxjs';
import type { z } from 'zod';
import { unwrapEnvelope } from './rpc-envelope.js';

/** Typed request/reply over NATS: the subject's schema checks the request, the envelope carries errors back. */
export class RpcClient {
  constructor(
    private readonly proxy: ClientProxy,
    private readonly defaultTimeoutMs: number,
  ) {}

  async request<S extends RpcSubject<z.ZodType, z.ZodType>>(
    subject: S,
    payload: RpcRequest<S>,
    options: { timeoutMs?: number } = {},
  ): Promise<RpcResponse<S>> {
    const body = subject.request.parse(payload);
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    let reply: unknown;
    try {
      reply = await firstValueFrom(this.proxy.send(subject.subject, body).pipe(timeout(timeoutMs)));
    } catch (error) {
      const service = subject.subject.split('.')[0];
      throw new AppError('UNAVAILABLE', `The ${service} service did not answer ${subject.subject}`, {
        cause: error,
        retryable: true,
      });
    }
    return unwrapEnvelope(reply, subject.subject) as RpcResponse<S>;
  }

  async close(): Promise<void> {
    await this.proxy.close();
  }
}
