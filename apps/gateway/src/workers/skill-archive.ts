import { AppError, type SkillVersionFiles } from '@agentry/contracts';

const BLOCK = 512;
// As AgentScope's worker does: scripts are laid out executable.
const EXECUTABLE = /(^|\/)scripts\/|\.(sh|py)$/;

/**
 * A skill version as a POSIX ustar archive wrapped in one `<name>/` folder (SKILL.md plus every other
 * file), the shape `client.beta.skills.versions.download` hands to the SDK worker's `tar -xf`.
 */
export function skillArchive(skill: SkillVersionFiles): Buffer {
  const root = skill.name;
  const parts: Buffer[] = [header(`${root}/`, 0, 0o755, '5')];
  const files: [string, Buffer][] = [
    ['SKILL.md', Buffer.from(skill.skill_md, 'utf8')],
    ...Object.entries(skill.files).map(([path, file]): [string, Buffer] => [
      path,
      Buffer.from(file.content, 'base64'),
    ]),
  ];
  for (const [path, content] of files) {
    parts.push(
      header(`${root}/${path}`, content.length, EXECUTABLE.test(path) ? 0o755 : 0o644, '0'),
      content,
      padding(content.length),
    );
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

function padding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

function header(path: string, size: number, mode: number, type: '0' | '5'): Buffer {
  const block = Buffer.alloc(BLOCK);
  const { name, prefix } = splitPath(path);
  block.write(name, 0, 100, 'utf8');
  writeOctal(block, mode, 100, 8);
  writeOctal(block, 0, 108, 8);
  writeOctal(block, 0, 116, 8);
  writeOctal(block, size, 124, 12);
  writeOctal(block, 0, 136, 12);
  block.fill(0x20, 148, 156);
  block.write(type, 156, 1, 'ascii');
  block.write('ustar\u000000', 257, 8, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  const checksum = block.reduce((sum, byte) => sum + byte, 0);
  block.write(`${checksum.toString(8).padStart(6, '0')}\u0000 `, 148, 8, 'ascii');
  return block;
}

function writeOctal(block: Buffer, value: number, offset: number, length: number): void {
  block.write(`${value.toString(8).padStart(length - 1, '0')}\u0000`, offset, length, 'ascii');
}

/** ustar keeps up to 100 bytes of name and 155 of prefix, split at a `/`. */
function splitPath(path: string): { name: string; prefix: string } {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: '' };
  for (let cut = path.indexOf('/'); cut !== -1; cut = path.indexOf('/', cut + 1)) {
    const prefix = path.slice(0, cut);
    const name = path.slice(cut + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { name, prefix };
  }
  throw new AppError('INVALID_REQUEST', `Skill file path ${path} is too long to archive`);
}
