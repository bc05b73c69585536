import {
  Inject,
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { tap, type Observable } from 'rxjs';
import { ActorCache } from './actor-cache.js';

/**
 * The replica that carried a change of someone's access must forget cached actors before it answers:
 * control's access-change message may reach it only after the caller has already retried. Access
 * changes are rare, so it forgets everything rather than work out whom the change touched.
 */
@Injectable()
export class ForgetCachedActorsInterceptor implements NestInterceptor {
  constructor(@Inject(ActorCache) private readonly cache: ActorCache) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    // On failure too: control may have committed the change before the answer went wrong.
    return next.handle().pipe(tap({ next: () => this.cache.clear(), error: () => this.cache.clear() }));
  }
}

/** Marks a handler that can revoke or narrow someone's access (key revoke, user update, membership…). */
export const ChangesAccess = (): MethodDecorator & ClassDecorator =>
  UseInterceptors(ForgetCachedActorsInterceptor);
