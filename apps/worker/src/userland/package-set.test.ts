import { describe, expect, it } from 'vitest';
import { layerKey, packageSetOf, PackageSpecError } from './package-set.js';

describe("an environment's package set", () => {
  it('is one layer whatever the order, repeats or empty lists', () => {
    const a = packageSetOf({ apt: ['cowsay', 'jq', 'cowsay'], npm: ['is-number@7.0.0'], pip: [], go: null });
    const b = packageSetOf({ npm: ['is-number@7.0.0'], apt: ['jq', 'cowsay'] });
    expect(a).toEqual({ apt: ['cowsay', 'jq'], npm: ['is-number@7.0.0'] });
    expect(layerKey('base1', a)).toBe(layerKey('base1', b));
    expect(layerKey('base2', a)).not.toBe(layerKey('base1', a));
    expect(layerKey('base1', packageSetOf({ apt: ['cowsay'] }))).not.toBe(layerKey('base1', a));
  });

  it("accepts each manager's own version syntax", () => {
    expect(() =>
      packageSetOf({
        apt: ['libssl-dev', 'python3.13=3.13.5-2', 'g++'],
        npm: ['@scope/pkg@^1.2.0', 'left-pad'],
        pip: ['requests[socks]>=2.31,<3', 'numpy==2.1.0'],
        cargo: ['ripgrep@14.1.0'],
        gem: ['rails:7.1.0'],
        go: ['golang.org/x/tools/gopls@v0.16.0'],
      }),
    ).not.toThrow();
  });

  it('refuses what is no package name, naming it', () => {
    for (const [manager, spec] of [
      ['apt', '--allow-unauthenticated'],
      ['npm', 'x; rm -rf /'],
      ['pip', '-e git+https://example.com/x'],
      ['apt', 'Cowsay With Spaces'],
    ] as const) {
      const error = (() => {
        try {
          packageSetOf({ [manager]: [spec] });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(PackageSpecError);
      expect((error as Error).message).toContain(spec);
    }
  });
});
