import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let tempFile: string | undefined;

afterEach(async () => {
  if (tempFile) await rm(tempFile, { force: true });
});

describe('README example', () => {
  it('runs as written and prints the output the README shows', async () => {
    const readme = await readFile(join(packageDir, 'README.md'), 'utf8');
    const example = /<!-- example:start -->\s*```ts\n([\s\S]*?)```\s*<!-- example:end -->/.exec(readme)?.[1];
    const shown = /Output:\s*```\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    // The package cannot import itself by name from a loose file; point that one specifier at the entry point.
    const code = example!.replace(
      "from '@agentry/harness'",
      `from ${JSON.stringify(join(packageDir, 'src', 'index.ts'))}`,
    );
    tempFile = join(packageDir, `.readme-example-${randomBytes(4).toString('hex')}.ts`);
    await writeFile(tempFile, code);
    // Run it the way a user would: Node + tsx, workspace packages resolved to their sources.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', tempFile],
      { cwd: packageDir, timeout: 60_000 },
    );
    expect(stdout).toBe(shown);
  }, 60_000);
});
