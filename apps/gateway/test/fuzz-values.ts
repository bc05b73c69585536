/** Hostile values the schema-aware fuzz test puts in bodies, query strings and paths. */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Variant {
  label: string;
  value: Json;
}

/** A small deterministic PRNG (mulberry32), so every run sends the same inputs. */
export function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `items` in a seeded random order (Fisher–Yates). */
export function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Strings that break naive storage, rendering or comparison. */
export const UNICODE_EDGES: Variant[] = [
  { label: 'lone high surrogate', value: 'before\ud800after' },
  { label: 'lone low surrogate', value: '\udfff' },
  { label: 'NUL byte', value: 'nul\u0000inside' },
  { label: 'RTL override', value: '\u202egnp.exe\u202c' },
  { label: 'emoji and joiners', value: '👩‍👩‍👧‍👦🏳️‍🌈' },
  { label: 'zero-width and BOM', value: '\ufeff\u200b\u200d' },
  { label: 'combining marks', value: 'Z\u0351\u0352\u0353\u0354\u0355\u0356\u0357' },
];

export const INJECTION_STRINGS: Variant[] = [
  { label: 'SQL-ish', value: "' OR '1'='1'; DROP TABLE agents; --" },
  { label: 'path traversal', value: '../../../../etc/passwd' },
  { label: 'markup', value: '<script>alert(1)</script>' },
];

export const LONG_STRING = 'x'.repeat(200_000);

export const NUMBER_EDGES: Variant[] = [
  { label: 'negative', value: -1 },
  { label: 'zero', value: 0 },
  { label: 'fraction', value: 1.5 },
  { label: 'past MAX_SAFE_INTEGER', value: Number.MAX_SAFE_INTEGER + 2 },
  { label: 'huge float', value: 1e308 },
  { label: 'tiny negative float', value: -1e-308 },
];

/** A value nested `levels` deep, objects and arrays alternating. */
export function deeplyNested(levels: number): Json {
  let value: Json = 'bottom';
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** Path segments (already URL-encoded) standing in for an id. `valid` is the real id, for a wrong prefix. */
export function badIds(valid: string | undefined): Variant[] {
  const underscore = valid?.indexOf('_') ?? -1;
  const wrongPrefix = valid && underscore > 0 ? `zzz${valid.slice(underscore)}` : `zzz_${valid ?? 'id'}`;
  return [
    { label: 'wrong prefix', value: encodeURIComponent(wrongPrefix) },
    { label: 'SQL-ish id', value: encodeURIComponent("1' OR '1'='1") },
    { label: 'traversal id', value: '..%2F..%2Fetc%2Fpasswd' },
    { label: 'dot-dot id', value: '..' },
    { label: 'NUL id', value: 'abc%00def' },
    { label: 'invalid UTF-8 id (lone surrogate)', value: '%ED%A0%80' },
    { label: 'stray byte id', value: '%FF%FE' },
    { label: 'RTL id', value: encodeURIComponent('\u202eabc') },
    { label: 'emoji id', value: encodeURIComponent('🧨') },
    { label: 'huge id', value: 'i'.repeat(5000) },
    { label: 'negative id', value: '-1' },
    { label: 'huge number id', value: '99999999999999999999999' },
  ];
}

/** Raw query values (already URL-encoded) for a parameter whose schema type is `type`. */
export function badQueryValues(type: string | undefined, name: string): Variant[] {
  const common: Variant[] = [
    { label: 'empty', value: '' },
    { label: 'NUL', value: '%00' },
    { label: 'invalid UTF-8', value: '%ED%A0%80' },
    { label: 'RTL and emoji', value: encodeURIComponent('\u202e🧨') },
    { label: 'very long', value: 'z'.repeat(6000) },
    { label: 'SQL-ish', value: encodeURIComponent("1' OR '1'='1") },
  ];
  if (type === 'integer' || type === 'number') {
    return [
      ...common,
      { label: 'negative', value: '-1' },
      { label: 'zero', value: '0' },
      { label: 'huge', value: '99999999999999999999999' },
      { label: 'exponent', value: '1e309' },
      { label: 'fraction', value: '1.5' },
      { label: 'not a number', value: 'abc' },
      { label: 'hex', value: '0x10' },
    ];
  }
  if (type === 'boolean')
    return [...common, { label: 'not a boolean', value: 'maybe' }, { label: 'number', value: '2' }];
  // Cursors and ids get forged pages, ones that decode to odd JSON, and negative offsets.
  const cursorish = /page|cursor|after|before|_id$|Id$/.test(name);
  return [
    ...common,
    ...(cursorish
      ? [
          { label: 'negative cursor', value: '-1' },
          { label: 'garbage cursor', value: '!!!%25%25%25' },
          {
            label: 'base64 of odd JSON',
            value: encodeURIComponent(Buffer.from('{"offset":-5,"id":null}').toString('base64url')),
          },
          {
            label: 'base64 of a non-object',
            value: encodeURIComponent(Buffer.from('[[[[1]]]]').toString('base64')),
          },
          { label: 'path traversal', value: '..%2F..%2Fetc%2Fpasswd' },
        ]
      : []),
    { label: 'bracketed', value: '[object Object]' },
  ];
}
