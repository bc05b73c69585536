import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { blockedAddressReason } from './blocked-address.js';

/** Resolves a host name to every address it has (injectable so tests need no DNS). */
export type HostResolver = (hostname: string) => Promise<string[]>;

export interface EgressGuardOptions {
  /** Let fetches reach loopback, private and link-local addresses (an installation's explicit choice). */
  allowPrivateNetworks?: boolean;
  resolve?: HostResolver;
}

const systemResolver: HostResolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Decides whether a server-side fetch may go to a URL: only http(s), and only when every address
 * the host resolves to is public. The URL is parsed by the WHATWG parser first, so numeric forms
 * of an address (`0x7f000001`, `2130706433`, `0177.0.0.1`) are judged as the address they are.
 * Callers check every hop of a redirect chain, not only the first URL.
 */
export class EgressGuard {
  private readonly resolve: HostResolver;

  constructor(private readonly options: EgressGuardOptions = {}) {
    this.resolve = options.resolve ?? systemResolver;
  }

  /** A reason the URL may not be fetched, or undefined when it may. */
  async refusal(url: URL): Promise<string | undefined> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Only http and https URLs can be fetched';
    if (this.options.allowPrivateNetworks) return undefined;
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : await this.resolve(host);
    } catch {
      return `The host ${host} could not be resolved`;
    }
    if (addresses.length === 0) return `The host ${host} could not be resolved`;
    for (const address of addresses) {
      const reason = blockedAddressReason(address);
      if (reason) return `${url.host} resolves to ${address}, a ${reason} address; fetching it is not allowed`;
    }
    return undefined;
  }
}
