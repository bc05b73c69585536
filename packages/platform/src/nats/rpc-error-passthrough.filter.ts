import { Catch, type RpcExceptionFilter } from '@nestjs/common';
import { throwError, type Observable } from 'rxjs';

/**
 * Hands an `@RpcHandler` method's error on unchanged, so the transport can put it in the reply envelope
 * typed. Nest's default filter for RPC would replace anything but an `RpcException` with an untyped
 * "Internal server error". Applied per method by `@RpcHandler` (a method filter is tried first).
 */
@Catch()
export class RpcErrorPassthroughFilter implements RpcExceptionFilter {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}
