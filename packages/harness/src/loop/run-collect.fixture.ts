import { MemoryWorkspaceFs } from '@agentry/workspace';
import type { Harness } from '../harness.js';
import type { RunContext, RunInput } from './harness-config.js';
import type { HarnessEvent, RunEndEvent } from './harness-events.js';

const TEST_CONTEXT: RunContext = { sessionId: 'sess_1', agentId: 'agent_1' };

/** Drains one run; returns every event and the final run.end. */
export async function collectRun(
  harness: Harness,
  input: RunInput,
  context: RunContext = TEST_CONTEXT,
  signal?: AbortSignal,
): Promise<{ events: HarnessEvent[]; end: RunEndEvent }> {
  const events: HarnessEvent[] = [];
  for await (const event of harness.run(input, context, signal)) events.push(event);
  const end = events.at(-1);
  if (end?.type !== 'run.end') throw new Error('run did not end with run.end');
  return { events, end };
}

export function ofType<T extends HarnessEvent['type']>(
  events: HarnessEvent[],
  type: T,
): Extract<HarnessEvent, { type: T }>[] {
  return events.filter((e): e is Extract<HarnessEvent, { type: T }> => e.type === type);
}

/** An in-memory workspace seeded with the given files. */
export async function workspaceWith(files: Record<string, string> = {}): Promise<MemoryWorkspaceFs> {
  const fs = new MemoryWorkspaceFs();
  for (const [path, content] of Object.entries(files)) await fs.writeText(path, content);
  return fs;
}
