import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalWorkspaceFs } from './local-workspace-fs.js';
import { readSmallFile, SMALL_FILE_BYTES } from './small-file.js';

describe('readSmallFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'small-file-'));

  it('reads a small file whole, an empty one as empty, and leaves a larger one to the caller', () => {
    writeFileSync(join(dir, 'a.txt'), 'hello\n');
    writeFileSync(join(dir, 'empty'), '');
    writeFileSync(join(dir, 'big'), Buffer.alloc(SMALL_FILE_BYTES + 1, 1));
    expect(readSmallFile(join(dir, 'a.txt'))?.toString()).toBe('hello\n');
    expect(readSmallFile(join(dir, 'empty'))?.length).toBe(0);
    expect(readSmallFile(join(dir, 'big'))).toBeNull();
  });

  it('refuses a symlink when told not to follow one, and a missing file', () => {
    writeFileSync(join(dir, 'target'), 'secret');
    symlinkSync(join(dir, 'target'), join(dir, 'link'));
    expect(readSmallFile(join(dir, 'link'))?.toString()).toBe('secret');
    expect(() => readSmallFile(join(dir, 'link'), true)).toThrow(/ELOOP/);
    expect(() => readSmallFile(join(dir, 'missing'))).toThrow(/ENOENT/);
  });

  it('leaves a workspace reading and writing files on either side of the size byte for byte', async () => {
    const fs = new LocalWorkspaceFs({ root: join(dir, 'ws') });
    for (const size of [0, 1024, SMALL_FILE_BYTES, SMALL_FILE_BYTES + 1, 3 * SMALL_FILE_BYTES]) {
      const content = Buffer.alloc(size, size % 251);
      await fs.writeBytes(`f${size}`, content);
      expect(Buffer.from(await fs.readBytes(`f${size}`)).equals(content)).toBe(true);
    }
  });
});
