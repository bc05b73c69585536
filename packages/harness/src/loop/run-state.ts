import type { ChatMessage } from '../model/model-port.js';
import type { UsageTotals } from './harness-events.js';

/** Mutable state of one run; created per run() call, never shared. */
export interface RunState {
  conversation: ChatMessage[];
  usage: UsageTotals;
  plan?: { path: string; content: string };
}

export function emptyUsage(): UsageTotals {
  return { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
}
