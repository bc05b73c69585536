import { AppError } from '@agentry/contracts';

/** What a worker holding one item's sessions token may post to its session: the results of its tools. */
const WORKER_EVENT_TYPES: ReadonlySet<string> = new Set(['user.tool_result', 'user.custom_tool_result']);

/** A sessions token answers tool calls; it cannot speak for the user (messages, approvals, interrupts). */
export function assertWorkerMaySend(events: ReadonlyArray<{ type: string }>): void {
  const refused = events.find((e) => !WORKER_EVENT_TYPES.has(e.type));
  if (refused) {
    throw new AppError(
      'PERMISSION_DENIED',
      `A work item's sessions token may only send ${[...WORKER_EVENT_TYPES].join(' and ')} events, not ${refused.type}`,
    );
  }
}
