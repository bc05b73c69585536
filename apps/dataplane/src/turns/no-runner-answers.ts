import { Inject, Injectable } from '@nestjs/common';
import { ID_PREFIXES, newId, type SessionDrainJob } from '@agentry/contracts';
import { LOGGER, type Logger } from '@agentry/platform';
import { EventPublisher } from '../event-log/event-publisher.js';
import { toStoredEvent } from '../event-log/event-row.mapper.js';
import { SessionEventsRepository } from '../event-log/session-events.repository.js';
import { pendingSelfHostedCalls } from '../hands/tool-call-ledger.js';
import { SessionStateRepository } from '../sessions/session-state.repository.js';

/** What the model and the user read on a self-hosted call no worker took. */
function noRunnerMessage(waitedSeconds: number): string {
  return (
    `No worker of this self-hosted environment took this tool call within ${waitedSeconds} s, so it was not ` +
    'run. Start a worker for the environment, or go on without the tool.'
  );
}

/**
 * Answers the self-hosted tool calls the scheduler found untaken (see NoRunnerReconciler) with an error
 * `user.tool_result` each, in the inbox like a worker's answer: the drain that follows runs the turn on.
 * A call answered meanwhile (a worker got to it after all) is left as it is.
 */
@Injectable()
export class NoRunnerAnswers {
  constructor(
    private readonly state: SessionStateRepository,
    private readonly events: SessionEventsRepository,
    private readonly publisher: EventPublisher,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async answer({ sessionId, toolUseIds = [], waitedSeconds = 0 }: SessionDrainJob): Promise<number> {
    const session = await this.state.find(sessionId);
    if (!session || session.archivedAt || session.status !== 'idle') return 0;
    const log = (await this.events.after(sessionId, 0)).map(toStoredEvent);
    const named = new Set(toolUseIds);
    const unrun = pendingSelfHostedCalls(log).filter((c) => named.has(c.toolUseId));
    if (unrun.length === 0) return 0;
    const rows = await this.events.append(
      sessionId,
      { kind: 'client', tenantId: session.tenantId, namespaceId: session.namespaceId },
      unrun.map((call) => ({
        id: newId(ID_PREFIXES.sessionEvent),
        type: 'user.tool_result',
        payload: {
          tool_use_id: call.toolUseId,
          is_error: true,
          content: [{ type: 'text', text: noRunnerMessage(waitedSeconds) }],
        },
        processed: false,
      })),
    );
    this.publisher.published(sessionId, rows.map(toStoredEvent));
    this.logger.info(
      { sessionId, calls: unrun.map((c) => c.toolUseId) },
      'answered self-hosted calls no worker took',
    );
    return unrun.length;
  }
}
