import { CMA_ERROR_TYPE_BY_CODE, HTTP_STATUS_BY_CODE, type ErrorCode } from '@agentry/contracts';

/**
 * What is wrong with an error reply for the surface its path belongs to, or null when it is right.
 * `/v1` (and the unversioned probes) speak CMA: `{type:"error", error:{type, message, code}, request_id}`,
 * with no `param`. `/api` speaks AgentScope's model: the same, plus an optional `error.param` naming a field.
 * Either way the code must be one the platform knows, and its status and type must match the reply's.
 */
export function envelopeProblem(
  path: string,
  status: number,
  contentType: string | null,
  text: string,
): string | null {
  if (!contentType?.includes('application/json')) return `content-type ${contentType ?? 'none'}, not JSON`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'a body that is not JSON';
  }
  const body = parsed as { type?: unknown; error?: unknown; request_id?: unknown } | null;
  if (body?.type !== 'error' || typeof body.error !== 'object' || body.error === null)
    return 'no {type:"error", error:{...}} envelope';
  const { type, code, message, param } = body.error as Record<string, unknown>;
  if (typeof message !== 'string' || message.trim() === '') return 'no message';
  if (typeof code !== 'string' || !(code in HTTP_STATUS_BY_CODE)) return `unknown error.code ${String(code)}`;
  if (HTTP_STATUS_BY_CODE[code as ErrorCode] !== status)
    return `error.code ${code} belongs with ${HTTP_STATUS_BY_CODE[code as ErrorCode]}, not ${status}`;
  if (type !== CMA_ERROR_TYPE_BY_CODE[code as ErrorCode])
    return `error.type ${String(type)} does not match code ${code}`;
  if (path.startsWith('/api/')) {
    if (param !== undefined && (typeof param !== 'string' || param === ''))
      return 'error.param that is not a field name';
    return null;
  }
  if (param !== undefined) return 'error.param on a /v1 reply';
  if (!('request_id' in body) || (body.request_id !== null && typeof body.request_id !== 'string'))
    return 'no request_id';
  return null;
}
