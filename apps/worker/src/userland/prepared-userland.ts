import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { USERLAND_STAMP } from './base-recipe.js';

/** The part of a base userland the sandboxes and the layer builder rely on. */
export interface UserlandBase {
  /** Names this base in package layer keys: a layer is built over exactly one base. */
  readonly id: string;
  ready(): boolean;
  /** The root, once there is one (built first where the worker builds its own). */
  ensure(): Promise<string>;
}

/** A root filesystem prepared elsewhere (shipped in the worker's image, or on a volume): used as it is. */
export class PreparedUserland implements UserlandBase {
  readonly id: string;

  constructor(private readonly root: string) {
    const stamp = join(root, USERLAND_STAMP);
    const recipe = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';
    this.id = createHash('sha256').update(`${root}\n${recipe}`).digest('hex').slice(0, 32);
  }

  ready(): boolean {
    return existsSync(join(this.root, 'usr'));
  }

  ensure(): Promise<string> {
    if (this.ready()) return Promise.resolve(this.root);
    return Promise.reject(new Error(`the sandbox userland ${this.root} has no usr/ directory`));
  }
}
