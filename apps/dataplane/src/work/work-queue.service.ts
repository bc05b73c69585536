import { Inject, Injectable } from '@nestjs/common';
import { ID_PREFIXES, newId } from '@agentry/contracts';
import type { WorkItem } from '@agentry/db';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { toStoredEvent } from '../event-log/event-row.mapper.js';
import { SessionEventsRepository } from '../event-log/session-events.repository.js';
import { pendingSelfHostedCalls } from '../hands/tool-call-ledger.js';
import { SessionStateRepository } from '../sessions/session-state.repository.js';
import { WorkItemsRepository } from './work-items.repository.js';
import { WorkWakeups } from './work-wakeups.js';

export interface SelfHostedSession {
  tenantId: string;
  environmentId: string;
  sessionId: string;
}

/** Puts self-hosted sessions in front of their environment's workers. */
@Injectable()
export class WorkQueue {
  constructor(
    private readonly items: WorkItemsRepository,
    private readonly wakeups: WorkWakeups,
    private readonly events: SessionEventsRepository,
    private readonly sessions: SessionStateRepository,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
  ) {}

  /**
   * Queues a work item for the session unless one is open (queued, starting or active; one that is
   * stopping is on its way out), and wakes the environment's long polls. Postgres holds the item
   * first; the wake-up only makes it fast.
   */
  async ensureOpen(session: SelfHostedSession): Promise<string | null> {
    const id = await this.items.queueForSession({
      id: newId(ID_PREFIXES.work),
      ...session,
      ttlSeconds: this.config.AGENTRY_WORK_LEASE_TTL_SECONDS,
    });
    if (id) this.wakeups.announce(session.environmentId, id);
    return id;
  }

  /**
   * After an item stopped: if its session still waits on self-hosted tool calls (the worker shut down
   * mid-task), queue a fresh item so another worker runs them. A session that is over needs none.
   */
  async requeueIfStillNeeded(stopped: WorkItem): Promise<string | null> {
    const session = await this.sessions.find(stopped.sessionId);
    if (!session || session.archivedAt || session.status === 'terminated') return null;
    const log = (await this.events.all(stopped.sessionId)).map(toStoredEvent);
    if (pendingSelfHostedCalls(log).length === 0) return null;
    return this.ensureOpen({
      tenantId: stopped.tenantId,
      environmentId: stopped.environmentId,
      sessionId: stopped.sessionId,
    });
  }
}
