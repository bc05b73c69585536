import { Inject, Injectable } from '@nestjs/common';
import { PubSubjects, UpkeepSubjects } from '@agentry/contracts';
import { LOGGER, NatsBus, RpcClient, type Logger } from '@agentry/platform';
import { SCHEDULER_CONFIG, type SchedulerEnv } from '../config/env.js';

/**
 * Stale reclaim for self-hosted work: an item whose worker crashed (no heartbeat within its TTL) is
 * queued again and the environment's long polls are woken, so another worker picks the session up.
 * One that was stopping is stopped, and replaced if its session still waits on a tool call. The work
 * items belong to the dataplane, which changes them on request.
 */
@Injectable()
export class StaleWorkReconciler {
  constructor(
    private readonly rpc: RpcClient,
    private readonly bus: NatsBus,
    @Inject(SCHEDULER_CONFIG) private readonly config: SchedulerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async tick(): Promise<number> {
    const { reclaimed } = await this.rpc.request(UpkeepSubjects.reclaimExpiredWork, {
      limit: this.config.AGENTRY_RECONCILE_BATCH,
    });
    for (const work of reclaimed) {
      if (work.state === 'queued') this.wake(work.environmentId, work.id);
      else {
        const { work: fresh } = await this.rpc.request(UpkeepSubjects.requeueAwaitingAction, {
          sessionId: work.sessionId,
        });
        if (fresh) this.wake(fresh.environmentId, fresh.id);
      }
    }
    if (reclaimed.length) {
      this.logger.info(
        { count: reclaimed.length, work: reclaimed.map((w) => w.id) },
        'reclaimed work items with expired leases',
      );
    }
    return reclaimed.length;
  }

  private wake(environmentId: string, workId: string): void {
    this.bus.publish(PubSubjects.environmentWork(environmentId), { environmentId, workId });
  }
}
