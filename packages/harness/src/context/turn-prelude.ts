import type { ReadAheadPlan } from '@agentry/workspace';
import { TOOLS_CONFIG_PATH } from '../tools/tools-config.js';
import { MEMORY_FILE } from '../memory/memory-clock.js';

/**
 * What every turn reads from the agent's workspace before its first model call: the loaded context
 * (AGENTS.md, MEMORY.md, knowledge/), `tools.json`, the skills and the sub-agent declarations. A
 * store that can read them in one round trip is given this plan.
 */
export const TURN_PRELUDE_READS: ReadAheadPlan = {
  paths: [
    'AGENTS.md',
    MEMORY_FILE,
    TOOLS_CONFIG_PATH,
    'knowledge',
    'knowledge/KNOWLEDGE.md',
    'skills',
    'subagents',
  ],
  children: ['skills', 'subagents'],
  trees: ['knowledge'],
};
