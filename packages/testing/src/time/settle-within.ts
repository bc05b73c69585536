/**
 * `promise`'s outcome, or a failure naming `what` once `ms` pass without one: for a test whose point is
 * that an answer comes within a bound (an answer, not a hang), said by the wait's own timeout.
 */
export async function settleWithin<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
