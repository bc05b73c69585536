import { Injectable } from '@nestjs/common';
import { FILESYSTEM_TOOLS, type HarnessTool } from '@agentry/harness';

/** The tools the Hands run, by name: the same tool code the harness uses in process. */
@Injectable()
export class HandsToolbox {
  private readonly tools = new Map<string, HarnessTool>(FILESYSTEM_TOOLS.map((t) => [t.name, t]));

  get(name: string): HarnessTool | undefined {
    return this.tools.get(name);
  }
}
