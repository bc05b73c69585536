import type { WorkerEnv } from '../config/env.js';

/** The registries' URLs as configured (the cargo index may carry cargo's `sparse+` scheme prefix). */
function registryUrls(config: WorkerEnv): string[] {
  return [
    config.AGENTRY_USERLAND_MIRROR,
    config.AGENTRY_USERLAND_SECURITY_MIRROR,
    config.AGENTRY_PACKAGES_NPM_REGISTRY,
    config.AGENTRY_PACKAGES_PIP_INDEX_URL,
    config.AGENTRY_PACKAGES_CARGO_INDEX.replace(/^sparse\+/, ''),
    config.AGENTRY_PACKAGES_GEM_SOURCE,
    config.AGENTRY_PACKAGES_GOPROXY,
  ].filter(Boolean);
}

/**
 * Hosts a package build may reach, and a `limited` session with `allow_package_managers` besides its own
 * list: the configured registries (a mirror, when one is set) and the hosts their downloads come from.
 */
export function registryHosts(config: WorkerEnv): string[] {
  const hosts = new Set<string>();
  for (const url of registryUrls(config)) hosts.add(new URL(url).host);
  // PyPI serves its files from another host than its index, and crates.io its crates.
  if (hosts.has('pypi.org')) hosts.add('files.pythonhosted.org');
  if (hosts.has('index.crates.io')) hosts.add('static.crates.io');
  if (hosts.has('proxy.golang.org')) hosts.add('sum.golang.org');
  return [...hosts];
}

/** The install script's registry settings. */
export function registryEnv(config: WorkerEnv): Record<string, string> {
  const pip = new URL(config.AGENTRY_PACKAGES_PIP_INDEX_URL);
  return {
    NPM_REGISTRY: config.AGENTRY_PACKAGES_NPM_REGISTRY,
    PIP_INDEX_URL: config.AGENTRY_PACKAGES_PIP_INDEX_URL,
    // pip refuses a plain-HTTP index unless told the host is trusted (a mirror on a private network).
    PIP_TRUSTED: pip.protocol === 'http:' ? `--trusted-host=${pip.hostname}` : '',
    CARGO_INDEX: config.AGENTRY_PACKAGES_CARGO_INDEX,
    GEM_SOURCE: config.AGENTRY_PACKAGES_GEM_SOURCE,
    GOPROXY: config.AGENTRY_PACKAGES_GOPROXY,
  };
}
