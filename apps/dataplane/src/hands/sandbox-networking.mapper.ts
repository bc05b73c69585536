import { NetworkingSchema, type SandboxNetworking, type SandboxProviderChoice } from '@agentry/contracts';
import type { HandsKind } from './hands-tool-executor.js';

/** Registries `allow_package_managers` opens (npm, PyPI, crates.io, RubyGems, Go, Debian/Ubuntu). */
const PACKAGE_MANAGER_HOSTS = [
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'pypi.org',
  'files.pythonhosted.org',
  'crates.io',
  'static.crates.io',
  'index.crates.io',
  'rubygems.org',
  'proxy.golang.org',
  'sum.golang.org',
  'deb.debian.org',
  'security.debian.org',
  'archive.ubuntu.com',
  'security.ubuntu.com',
];

export function handsKindOf(environmentType: string): HandsKind {
  if (environmentType === 'sandbox' || environmentType === 'remote' || environmentType === 'self_hosted')
    return environmentType;
  return 'local';
}

/**
 * The environment's `networking` as the sandbox enforces it. Only `cloud` configs carry one; every other
 * config (and an unreadable one) is `unrestricted`, which still keeps the sandbox off private addresses.
 * `allow_mcp_servers` opens exactly the `host:port` of each MCP server URL the agent connects to.
 */
export function sandboxNetworkingOf(
  config: Record<string, unknown> | undefined,
  mcpServerUrls: readonly string[] = [],
): SandboxNetworking {
  const parsed = NetworkingSchema.safeParse(config?.networking);
  if (!parsed.success || parsed.data.type !== 'limited') return { type: 'unrestricted', allowedHosts: [] };
  const { allowed_hosts, allow_package_managers, allow_mcp_servers } = parsed.data;
  return {
    type: 'limited',
    allowedHosts: [
      ...allowed_hosts,
      ...(allow_package_managers ? PACKAGE_MANAGER_HOSTS : []),
      ...(allow_mcp_servers ? mcpServerUrls.flatMap(hostAndPortOf) : []),
    ],
  };
}

/** `host:port` of a URL, with the scheme's port when it names none; nothing for a URL that does not parse. */
function hostAndPortOf(url: string): string[] {
  if (!URL.canParse(url)) return [];
  const { hostname, port, protocol } = new URL(url);
  return [`${hostname}:${port || (protocol === 'http:' || protocol === 'ws:' ? 80 : 443)}`];
}

/**
 * The environment's `sandbox` config (validated when it was stored) as the worker reads it, ready to spread
 * into the Hands target; empty when the environment names no provider.
 */
export function sandboxProviderOf(config: Record<string, unknown> | undefined): {
  sandbox?: SandboxProviderChoice;
} {
  const sandbox = (config?.sandbox ?? {}) as Record<string, unknown>;
  if (sandbox.provider !== 'e2b' && sandbox.provider !== 'bubblewrap') return {};
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const template = text(sandbox.template);
  const apiUrl = text(sandbox.api_url);
  const domain = text(sandbox.domain);
  return {
    sandbox: {
      provider: sandbox.provider,
      ...(template ? { template } : {}),
      ...(apiUrl ? { apiUrl } : {}),
      ...(domain ? { domain } : {}),
    },
  };
}
