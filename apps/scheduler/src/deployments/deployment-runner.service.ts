import { Injectable } from '@nestjs/common';
import {
  DataplaneSubjects,
  DeploymentRunSubjects,
  type Actor,
  type DeploymentError,
  type DeploymentInitialEvent,
  type DeploymentRun,
  type DeploymentRunTrigger,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { runAppendIdempotency } from './run-idempotency.js';

export interface RunRequest {
  id: string;
  trigger: DeploymentRunTrigger;
  /** The cron time this fire stands for; at most one run is recorded per deployment and time. */
  scheduled_for?: string;
  initial_events?: DeploymentInitialEvent[];
}

/**
 * The one path every trigger takes (manual, webhook, cron): control records the run and creates the
 * session; the initial events then go to the dataplane, which starts the turn; the run is finished.
 */
@Injectable()
export class DeploymentRunner {
  constructor(private readonly rpc: RpcClient) {}

  async run(actor: Actor, req: RunRequest): Promise<DeploymentRun> {
    const started = await this.rpc.request(DeploymentRunSubjects.start, { actor, ...req });
    const sessionId = started.run.session_id;
    if (!sessionId || started.run.error) return started.run;
    let error: DeploymentError | null = null;
    try {
      await this.rpc.request(DataplaneSubjects.appendEvents, {
        actor,
        sessionId,
        events: started.initial_events,
        idempotency: runAppendIdempotency(started.run.id),
      });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      error = {
        type: 'unknown_error',
        message: `Session ${sessionId} was created but did not accept the initial events: ${reason}`,
      };
    }
    return this.rpc.request(DeploymentRunSubjects.finish, { actor, run_id: started.run.id, error });
  }

  async runByWebhook(token: string, initialEvents?: DeploymentInitialEvent[]): Promise<DeploymentRun> {
    const { deployment_id, actor } = await this.rpc.request(DeploymentRunSubjects.resolveWebhook, { token });
    return this.run(actor, { id: deployment_id, trigger: 'webhook', initial_events: initialEvents });
  }
}
