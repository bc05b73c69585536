import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { SandboxCredential } from '@agentry/contracts';
import { hostAllowed } from '@agentry/harness';

/**
 * What the sandbox sees in `$secret_name` instead of the secret: stable for a credential (so exported
 * shell state stays valid), distinct per credential, and carrying nothing of the secret.
 */
export function placeholderOf(credential: Pick<SandboxCredential, 'credential_id' | 'secret_name'>): string {
  const digest = createHash('sha256')
    .update(`${credential.credential_id}\0${credential.secret_name}`)
    .digest('hex')
    .slice(0, 32);
  return `agentry_placeholder_${digest}`;
}

/** The sandbox's environment: each credential's variable set to its placeholder. */
export function placeholderEnv(credentials: readonly SandboxCredential[]): Record<string, string> {
  return Object.fromEntries(credentials.map((c) => [c.secret_name, placeholderOf(c)]));
}

/** One secret to put in place of its placeholder in a request to one host. */
export interface Swap {
  placeholder: string;
  secret: string;
  header: boolean;
  body: boolean;
}

/** The swaps that apply to a request to `host:port`: only credentials whose networking admits that host. */
export function swapsFor(credentials: readonly SandboxCredential[], host: string, port: number): Swap[] {
  const name = host.replace(/^\[|\]$/g, '');
  return credentials
    .filter(
      (c) => c.networking.type === 'unrestricted' || hostAllowed(c.networking.allowed_hosts, name, port),
    )
    .filter((c) => c.injection_location.header || c.injection_location.body)
    .map((c) => ({
      placeholder: placeholderOf(c),
      secret: c.secret_value,
      header: c.injection_location.header,
      body: c.injection_location.body,
    }));
}

/** Request headers with the header swaps applied (the values only; names are left alone). */
export function swapHeaders(headers: IncomingHttpHeaders, swaps: readonly Swap[]): IncomingHttpHeaders {
  const active = swaps.filter((s) => s.header);
  if (active.length === 0) return headers;
  const replace = (value: string) => active.reduce((v, s) => v.split(s.placeholder).join(s.secret), value);
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = Array.isArray(value)
      ? value.map(replace)
      : typeof value === 'string'
        ? replace(value)
        : value;
  }
  return out;
}

/** A request body with the body swaps applied; the same buffer when none matched. */
export function swapBody(body: Buffer, swaps: readonly Swap[]): Buffer {
  let out = body;
  for (const swap of swaps) {
    if (!swap.body) continue;
    const needle = Buffer.from(swap.placeholder);
    if (out.indexOf(needle) < 0) continue;
    const parts: Buffer[] = [];
    let from = 0;
    for (let at = out.indexOf(needle); at >= 0; at = out.indexOf(needle, from)) {
      parts.push(out.subarray(from, at), Buffer.from(swap.secret));
      from = at + needle.length;
    }
    parts.push(out.subarray(from));
    out = Buffer.concat(parts);
  }
  return out;
}
