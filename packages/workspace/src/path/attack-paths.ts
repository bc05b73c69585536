/**
 * Paths an attacker might hand a file tool. Every backend must reject each of these with PATH_ESCAPE
 * (the conformance suite checks read, write, list, move and delete).
 */
export const ATTACK_PATHS: readonly string[] = [
  '..',
  '../',
  '../etc/passwd',
  '../../../../../../etc/passwd',
  'a/../../b',
  'a/b/../../../c',
  './../x',
  'notes/../..',
  '/etc/passwd',
  '/',
  '//server/share',
  '\\etc\\passwd',
  '..\\..\\windows\\win.ini',
  'a\\..\\..\\b',
  'C:\\Windows\\system32',
  'C:/Windows/system32',
  'c:relative',
  'file\u0000.txt',
  '\u0000',
  'ok.txt\u0000../../etc/passwd',
  'line\nbreak',
  'tab\there',
  'esc\u001b[31m',
  'del\u007f',
  'lone\ud800surrogate',
  'x/\udc00',
  `${'a'.repeat(256)}.txt`,
  `${'d/'.repeat(2100)}f`,
  '.\u002e/x',
  'a/./../../b',
  '....//..//etc',
];

/** Paths that look odd but are legitimate names inside the root and must work. */
export const TRICKY_VALID_PATHS: readonly string[] = [
  '...',
  '..;',
  '....',
  '..foo',
  'foo..',
  '.hidden',
  '%2e%2e/%2e%2e/etc',
  '~/x',
  'spaces in name.txt',
  'ünïcödé/ファイル.md',
  '\uff0e\uff0e/fullwidth-dots',
  'emoji-😀.txt',
];
