import { describe, expect, it } from 'vitest';
import { OutputCollector } from './output-collector.js';

describe('OutputCollector', () => {
  it('passes small output through unchanged', () => {
    const out = new OutputCollector(100);
    out.push('hello ');
    out.push(Buffer.from('world'));
    expect(out.toString()).toBe('hello world');
    expect(out.truncated).toBe(false);
  });

  it('keeps head and tail around a truncation marker', () => {
    const out = new OutputCollector(10);
    for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') out.push(c);
    expect(out.truncated).toBe(true);
    expect(out.droppedBytes).toBe(16);
    expect(out.toString()).toBe('ABCDE\n[... 16 bytes truncated ...]\nVWXYZ');
  });

  it('handles one chunk larger than the cap', () => {
    const out = new OutputCollector(4);
    out.push('0123456789');
    expect(out.toString()).toBe('01\n[... 6 bytes truncated ...]\n89');
  });
});
