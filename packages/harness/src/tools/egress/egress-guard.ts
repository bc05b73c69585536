import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { blockedAddressReason } from './blocked-address.js';

/** Resolves a host name to every address it has (injectable so tests need no DNS). */
export type HostResolver = (hostname: string) => Promise<string[]>;

export interface EgressGuardOptions {
  /** Let fetches reach loopback, private and link-local addresses (an installation's explicit choice). */
  allowPrivateNetworks?: boolean;
  /**
   * Hosts let through wherever they resolve, as a URL writes them (`host:port`, or `host` on the default
   * port): one receiver an installation runs on its own network, without opening every private address.
   */
  allowedHosts?: readonly string[];
  resolve?: HostResolver;
}

const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

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
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return 'Only http and https URLs can be fetched';
    if (this.options.allowPrivateNetworks || this.allowsHost(url)) return undefined;
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const admitted = await this.admit(host, url.host);
    return 'refusal' in admitted ? admitted.refusal : undefined;
  }

  /** Whether the URL's host is one the installation let through by name (`allowedHosts`). */
  allowsHost(url: URL): boolean {
    return this.options.allowedHosts?.includes(url.host.toLowerCase()) ?? false;
  }

  /**
   * The dispatcher every guarded fetch goes through (`fetch(url, { dispatcher })`): its connections are made
   * only to addresses this guard has just admitted, resolved once for the connection itself. Checking a URL
   * and then letting the fetch resolve its host again would let a name that answers a public address first
   * and a private one next (DNS rebinding) through; here the address checked is the address dialled.
   */
  get dispatcher(): Dispatcher {
    this.pinned ??= new Agent({ connect: { lookup: this.lookup } });
    return this.pinned;
  }

  private pinned: Agent | undefined;

  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    const answer = this.options.allowPrivateNetworks
      ? this.addresses(hostname).then((addresses) => ({ addresses }))
      : this.admit(hostname);
    answer.then(
      (admitted) => {
        if ('refusal' in admitted)
          return callback(Object.assign(new Error(admitted.refusal), { code: 'EGRESS_DENIED' }), '', 0);
        const [first] = admitted.addresses;
        if (options.all)
          callback(
            null,
            admitted.addresses.map((address) => ({ address, family: isIP(address) })),
          );
        else callback(null, first!, isIP(first!));
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };

  /** `named` is how a refusal names the host (the URL's host, with its port, when there is one). */
  private async admit(
    host: string,
    named = `The host ${host}`,
  ): Promise<{ addresses: string[] } | { refusal: string }> {
    let addresses: string[];
    try {
      addresses = await this.addresses(host);
    } catch {
      return { refusal: `The host ${host} could not be resolved` };
    }
    if (addresses.length === 0) return { refusal: `The host ${host} could not be resolved` };
    for (const address of addresses) {
      const reason = blockedAddressReason(address);
      if (reason)
        return {
          refusal: `${named} resolves to ${address}, a ${reason} address; fetching it is not allowed`,
        };
    }
    return { addresses };
  }

  private async addresses(host: string): Promise<string[]> {
    return isIP(host) ? [host] : this.resolve(host);
  }
}

/** `init` with the guard's dispatcher, so the fetch dials only addresses the guard admits. */
export function guarded(guard: EgressGuard, init: RequestInit = {}): RequestInit {
  // The dispatcher is undici's own; Node's fetch types name an older copy of the same interface.
  return { ...init, dispatcher: guard.dispatcher } as unknown as RequestInit;
}
