import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { SandboxNetworking } from '@agentry/contracts';
import { blockedAddressReason, hostAllowed } from '@agentry/harness';

export type EgressDecision = { address: string } | { refusal: string };

export interface EgressPolicyOptions {
  networking: SandboxNetworking;
  /** `host:port` pairs that may be reached although they are private (installation services, tests). */
  privateAllowed: ReadonlySet<string>;
  resolve?: (host: string) => Promise<string[]>;
}

const systemResolve = async (host: string) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Decides one outbound connection of a sandbox: `limited` admits only its allowed hosts, and whatever
 * the mode the address the host resolves to must be public (no loopback, private, link-local or
 * metadata address) unless the installation allows that exact `host:port`. The proxy connects to the
 * address decided here, so a DNS answer cannot change between the check and the connection.
 */
export async function decideEgress(
  host: string,
  port: number,
  options: EgressPolicyOptions,
): Promise<EgressDecision> {
  const name = host.replace(/^\[|\]$/g, '');
  if (!Number.isInteger(port) || port < 1 || port > 65535) return { refusal: `invalid port ${port}` };
  const { networking } = options;
  if (networking.type === 'limited' && !hostAllowed(networking.allowedHosts, name, port)) {
    return { refusal: `${name}:${port} is not in this environment's allowed_hosts` };
  }
  let addresses: string[];
  try {
    addresses = isIP(name) ? [name] : await (options.resolve ?? systemResolve)(name);
  } catch {
    return { refusal: `${name} could not be resolved` };
  }
  if (addresses.length === 0) return { refusal: `${name} could not be resolved` };
  const exempt = options.privateAllowed.has(`${name.toLowerCase()}:${port}`);
  for (const address of addresses) {
    const reason = blockedAddressReason(address);
    if (reason && !exempt && !options.privateAllowed.has(`${address}:${port}`))
      return { refusal: `${name} resolves to ${address}, a ${reason} address; sandboxes cannot reach it` };
  }
  return { address: addresses[0]! };
}
