import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { stdioServerWrapper } from '../sandbox/shell-wrapper.js';
import { StdoutLines } from './stdout-lines.js';

describe('a stdio server in the sandbox', () => {
  it('has its output split into JSON-RPC lines however the pipe chunks it', () => {
    const lines = new StdoutLines();
    expect(lines.push(Buffer.from('{"jsonrpc":"2.0","id":1,'))).toEqual([]);
    expect(lines.push(Buffer.from('"result":{}}\r\n\n{"jsonrpc":"2.0","method":"x"}\n{"par'))).toEqual([
      '{"jsonrpc":"2.0","id":1,"result":{}}',
      '{"jsonrpc":"2.0","method":"x"}',
    ]);
    expect(lines.push(Buffer.from('tial":1}\n'))).toEqual(['{"partial":1}']);
  });

  it('runs its command with every argument as given, nothing expanded by the shell', () => {
    const script = stdioServerWrapper(null, 'printf', ['%s|', "it's", '$HOME', '; echo injected']);
    expect(execFileSync('/bin/sh', ['-c', script]).toString()).toBe("it's|$HOME|; echo injected|");
  });
});
