/** `host`, `host:port` or `*.domain` (any subdomain), matched without case; a scheme is ignored. */
export function hostAllowed(allowedHosts: readonly string[], host: string, port: number): boolean {
  const name = host.toLowerCase();
  return allowedHosts.some((raw) => {
    const entry = raw
      .toLowerCase()
      .replace(/^[a-z]+:\/\//, '')
      .replace(/\/.*$/, '');
    const [pattern, entryPort] = entry.startsWith('[')
      ? [entry.slice(1, entry.indexOf(']')), entry.split(']:')[1]]
      : (entry.split(':') as [string, string?]);
    if (entryPort !== undefined && Number(entryPort) !== port) return false;
    return pattern.startsWith('*.') ? name.endsWith(pattern.slice(1)) : name === pattern;
  });
}
