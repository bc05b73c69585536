import { MemoryWorkspaceFs } from '@agentry/workspace';

/** A real in-memory workspace seeded with files, for unit tests of this package. */
export async function seededWorkspace(files: Record<string, string> = {}): Promise<MemoryWorkspaceFs> {
  const fs = new MemoryWorkspaceFs();
  for (const [path, content] of Object.entries(files)) await fs.writeText(path, content);
  return fs;
}

/** Every file path in a workspace, sorted. */
export async function allFilePaths(fs: MemoryWorkspaceFs): Promise<string[]> {
  return (await fs.list('', { recursive: true }))
    .filter((stat) => stat.kind === 'file')
    .map((stat) => stat.path)
    .sort();
}
