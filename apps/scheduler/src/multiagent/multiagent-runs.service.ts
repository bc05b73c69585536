import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  ControlSubjects,
  ID_PREFIXES,
  Jobs,
  newId,
  type Actor,
  type MultiagentRun,
  type MultiagentRunRpcRequest,
} from '@agentry/contracts';
import { CLOCK, JobQueue, RpcClient, type Clock } from '@agentry/platform';
import { MultiagentRunsRepository } from './multiagent-runs.repository.js';
import { RunChanges } from './run-changes.js';

/**
 * Multi-agent runs as durable jobs: a run is recorded and queued at once, and answered from the table.
 * Every agent and the environment are checked first, so an id the caller cannot see fails the whole
 * request with 404 before anything exists.
 */
@Injectable()
export class MultiagentRunsService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly runs: MultiagentRunsRepository,
    private readonly changes: RunChanges,
    @Inject(JobQueue) private readonly jobs: JobQueue,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async start(req: MultiagentRunRpcRequest): Promise<MultiagentRun> {
    const { actor } = req;
    // Refused as a whole, like any write: not one "may only read" error per agent in a 200.
    if (actor.role === 'viewer') throw new AppError('PERMISSION_DENIED', 'This key or user may only read');
    for (const id of new Set(req.agent_ids))
      await this.rpc.request(ControlSubjects.getAgent, { actor, id, query: {} });
    await this.rpc.request(ControlSubjects.getEnvironment, { actor, id: req.environment_id });
    const { run } = await this.runs.create({
      id: newId(ID_PREFIXES.multiagentRun),
      actor,
      message: req.message,
      environmentId: req.environment_id,
      parallel: req.parallel,
      agentIds: req.agent_ids,
      deadlineAt: new Date(this.clock.nowMs() + req.timeout_ms),
    });
    await this.jobs.enqueue(Jobs.multiagentRun, { runId: run.id, tenantId: actor.tenantId });
    return run;
  }

  async get(actor: Actor, id: string): Promise<MultiagentRun> {
    const run = await this.runs.findForActor(actor, id);
    if (!run) throw new AppError('NOT_FOUND', `Multi-agent run ${id} not found`);
    return run;
  }

  /** The run once completed, or as it stands after `waitMs`. */
  async awaitCompletion(actor: Actor, id: string, waitMs: number): Promise<MultiagentRun> {
    let completed: (run: MultiagentRun) => void = () => undefined;
    const done = new Promise<MultiagentRun>((resolve) => (completed = resolve));
    const stop = await this.changes.watch(id, (run) => {
      if (run.status === 'completed') completed(run);
    });
    try {
      // Read after subscribing: a completion between the two is seen by one or the other.
      const current = await this.get(actor, id);
      if (current.status === 'completed' || waitMs === 0) return current;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), waitMs)));
      const finished = await Promise.race([done, timedOut]);
      clearTimeout(timer);
      return finished ?? (await this.get(actor, id));
    } finally {
      stop();
    }
  }
}
