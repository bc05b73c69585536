import { Injectable } from '@nestjs/common';
import type { AgentShell, HarnessTool } from '@agentry/harness';
import { sandboxToolFor } from './sandbox-tools.js';

/** The tools the Hands run, by name, bound to the session's sandbox: the same tool code the harness uses in process. */
@Injectable()
export class HandsToolbox {
  get(
    name: string,
    sandbox: { shell: AgentShell },
    timeouts: { defaultMs: number; callMs: number },
  ): HarnessTool | null {
    return sandboxToolFor(name, sandbox, timeouts);
  }
}
