import { describe, expect, it } from 'vitest';
import { hostAllowed } from './allowed-hosts.js';

describe('allowed hosts', () => {
  it('matches allowed hosts by name, name and port, or subdomain wildcard', () => {
    const list = ['api.example.com', 'files.example.org:8443', '*.pkg.dev', 'https://Docs.Example.net/'];
    expect(hostAllowed(list, 'API.example.com', 443)).toBe(true);
    expect(hostAllowed(list, 'files.example.org', 8443)).toBe(true);
    expect(hostAllowed(list, 'files.example.org', 443)).toBe(false);
    expect(hostAllowed(list, 'eu.pkg.dev', 443)).toBe(true);
    expect(hostAllowed(list, 'pkg.dev.evil.com', 443)).toBe(false);
    expect(hostAllowed(list, 'docs.example.net', 80)).toBe(true);
    expect(hostAllowed(list, 'example.com', 443)).toBe(false);
  });
});
