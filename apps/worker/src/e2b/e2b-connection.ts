import type { SandboxProviderChoice } from '@agentry/contracts';
import type { E2bConnection } from '@agentry/workspace';
import type { WorkerEnv } from '../config/env.js';

/** A session's E2B endpoint and template: the environment's choice over the installation's defaults. */
export interface E2bTarget {
  connection: E2bConnection;
  template?: string;
}

/** Whether a call runs in E2B: the environment's `sandbox.provider`, else the installation's default. */
export function usesE2b(choice: SandboxProviderChoice | undefined, config: WorkerEnv): boolean {
  return (choice?.provider ?? config.AGENTRY_SANDBOX_PROVIDER) === 'e2b';
}

/**
 * The connection for a session. The installation's API key is only ever sent to the installation's own
 * endpoint or to a domain AGENTRY_E2B_ALLOWED_DOMAINS lists, so an environment cannot point it elsewhere.
 */
export function e2bTargetOf(choice: SandboxProviderChoice | undefined, config: WorkerEnv): E2bTarget {
  // Said here, in the installation's own terms, rather than by the SDK, which names its own variable.
  if (!config.AGENTRY_E2B_API_KEY)
    throw new E2bNotConfigured(
      'this installation has no E2B API key: set AGENTRY_E2B_API_KEY on the workers, or choose another sandbox provider',
    );
  const apiUrl = choice?.apiUrl ?? config.AGENTRY_E2B_API_URL;
  const domain = choice?.domain ?? config.AGENTRY_E2B_DOMAIN;
  if (choice?.apiUrl && choice.apiUrl !== config.AGENTRY_E2B_API_URL)
    assertAllowed(new URL(choice.apiUrl), config);
  if (choice?.domain && choice.domain !== config.AGENTRY_E2B_DOMAIN)
    assertAllowedDomain(choice.domain, config);
  const template = choice?.template ?? config.AGENTRY_E2B_TEMPLATE;
  return {
    connection: {
      apiKey: config.AGENTRY_E2B_API_KEY,
      ...(apiUrl ? { apiUrl } : {}),
      ...(domain ? { domain } : {}),
      ...(config.AGENTRY_E2B_SANDBOX_URL ? { sandboxUrl: config.AGENTRY_E2B_SANDBOX_URL } : {}),
      requestTimeoutMs: config.AGENTRY_E2B_REQUEST_TIMEOUT_MS,
    },
    ...(template ? { template } : {}),
  };
}

/** E2B chosen on an installation that has not configured it. */
class E2bNotConfigured extends Error {
  override readonly name = 'E2bNotConfigured';
}

/** An endpoint the environment names that this installation does not allow. */
class E2bEndpointNotAllowed extends Error {
  override readonly name = 'E2bEndpointNotAllowed';
}

function assertAllowed(url: URL, config: WorkerEnv): void {
  const allowed = config.AGENTRY_E2B_ALLOWED_DOMAINS;
  if (allowed.has(url.host.toLowerCase()) || allowed.has(url.hostname.toLowerCase())) return;
  throw new E2bEndpointNotAllowed(
    `The environment's sandbox.api_url host ${url.host} is not in this installation's AGENTRY_E2B_ALLOWED_DOMAINS`,
  );
}

function assertAllowedDomain(domain: string, config: WorkerEnv): void {
  if (config.AGENTRY_E2B_ALLOWED_DOMAINS.has(domain.toLowerCase())) return;
  throw new E2bEndpointNotAllowed(
    `The environment's sandbox.domain ${domain} is not in this installation's AGENTRY_E2B_ALLOWED_DOMAINS`,
  );
}
