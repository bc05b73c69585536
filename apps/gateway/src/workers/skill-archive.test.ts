import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SkillVersionFiles } from '@agentry/contracts';
import { skillArchive } from './skill-archive.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

const SKILL: SkillVersionFiles = {
  skill_id: 'skill_1',
  version_id: 'skver_1',
  version: 1,
  name: 'pdf-tools',
  description: 'Works with PDFs',
  skill_md: '---\nname: pdf-tools\ndescription: Works with PDFs\n---\nUse the scripts.\n',
  files: {
    'scripts/extract.sh': { encoding: 'base64', content: b64('#!/bin/sh\necho extracted\n') },
    [`docs/${'deep/'.repeat(30)}notes.md`]: { encoding: 'base64', content: b64('x'.repeat(1_000)) },
  },
};

describe('skillArchive', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is a tar archive that tar lists and extracts into one folder named after the skill', async () => {
    dir = mkdtempSync(join(tmpdir(), 'skill-archive-'));
    const archive = join(dir, 'skill.tar');
    writeFileSync(archive, await skillArchive(SKILL));
    const listing = execFileSync('tar', ['-tf', archive], { encoding: 'utf8' }).trim().split('\n');
    expect(listing).toEqual([
      'pdf-tools/',
      'pdf-tools/SKILL.md',
      'pdf-tools/scripts/extract.sh',
      `pdf-tools/docs/${'deep/'.repeat(30)}notes.md`,
    ]);

    execFileSync('tar', ['-xf', archive, '-C', dir]);
    expect(readFileSync(join(dir, 'pdf-tools', 'SKILL.md'), 'utf8')).toBe(SKILL.skill_md);
    expect(readFileSync(join(dir, 'pdf-tools', 'scripts', 'extract.sh'), 'utf8')).toBe(
      '#!/bin/sh\necho extracted\n',
    );
    expect(statSync(join(dir, 'pdf-tools', 'scripts', 'extract.sh')).mode & 0o111).not.toBe(0);
    expect(
      readFileSync(join(dir, 'pdf-tools', 'docs', ...Array<string>(30).fill('deep'), 'notes.md'), 'utf8'),
    ).toBe('x'.repeat(1_000));
  });
});
