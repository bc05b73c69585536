import { rpcSubject, type RpcSubject } from '@agentry/contracts';
import { z } from 'zod';

/**
 * The same subject without the client-side request check, so a test can send what a faulty client
 * would and see the service's own validation answer.
 */
export function unchecked<Res extends z.ZodType>(
  subject: RpcSubject<z.ZodType, Res>,
): RpcSubject<z.ZodUnknown, Res> {
  return rpcSubject(subject.subject, z.unknown(), subject.response);
}
