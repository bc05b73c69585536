import { AppError } from '@agentry/contracts';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const MAX_DEPTH = 64;

/** Why `text` cannot be stored as text, or undefined when it can. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains a NUL character (\\u0000), which text fields cannot hold';
  if (LONE_SURROGATE.test(text)) return 'contains an unpaired UTF-16 surrogate, which is not valid Unicode';
  return undefined;
}

/**
 * Throws a typed INVALID_REQUEST naming the first string (value or field name) in `value` that
 * Postgres and UTF-8 cannot hold: such input is the caller's mistake, and would otherwise fail deep
 * in storage as an internal error. Nesting deeper than any request needs is rejected too.
 * `where` names the whole value (`body`, `query`) in messages about it.
 */
export function assertStorableText(value: unknown, where: string): void {
  const stack: Array<{ value: unknown; path: string[] }> = [{ value, path: [] }];
  const name = (path: string[]) => (path.length ? path.join('.') : where);
  while (stack.length) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) throw new AppError('INVALID_REQUEST', `${name(path)}: ${problem}`);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (path.length >= MAX_DEPTH)
      throw new AppError('INVALID_REQUEST', `${name(path)}: nested deeper than ${MAX_DEPTH} levels`);
    for (const [key, child] of Object.entries(current)) {
      const keyProblem = textProblem(key);
      if (keyProblem) throw new AppError('INVALID_REQUEST', `${name(path)}: a field name ${keyProblem}`);
      stack.push({ value: child, path: [...path, key] });
    }
  }
}
