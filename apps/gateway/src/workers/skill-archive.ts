import type { SkillVersionFiles } from '@agentry/contracts';
import { buffer } from 'node:stream/consumers';
import { pack } from 'tar-stream';

// As AgentScope's worker does: scripts are laid out executable.
const EXECUTABLE = /(^|\/)scripts\/|\.(sh|py)$/;

/**
 * A skill version as a tar archive wrapped in one `<name>/` folder (SKILL.md plus every other file), the
 * shape `client.beta.skills.versions.download` hands to the SDK worker's `tar -xf`. Paths too long for a
 * ustar header travel in pax headers, which every tar reads.
 */
export async function skillArchive(skill: SkillVersionFiles): Promise<Buffer> {
  const root = skill.name;
  const archive = pack();
  const bytes = buffer(archive);
  archive.entry({ name: `${root}/`, type: 'directory', mode: 0o755 });
  const files: [string, Buffer][] = [
    ['SKILL.md', Buffer.from(skill.skill_md, 'utf8')],
    ...Object.entries(skill.files).map(([path, file]): [string, Buffer] => [
      path,
      Buffer.from(file.content, 'base64'),
    ]),
  ];
  for (const [path, content] of files) {
    archive.entry({ name: `${root}/${path}`, mode: EXECUTABLE.test(path) ? 0o755 : 0o644 }, content);
  }
  archive.finalize();
  return bytes;
}
