import { Inject, Injectable } from '@nestjs/common';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { AppError, type StoredEvent } from '@agentry/contracts';
import { LOGGER, platformMetrics, type Logger } from '@agentry/platform';
import { isDatabaseUnavailable } from '@agentry/db';
import { isPersistedEvent, isTransientOutage, type RunEndEvent, type RunInput } from '@agentry/harness';
import { BudgetAdmission } from '../budgets/budget-admission.service.js';
import { SessionAccounts } from '../budgets/session-accounts.repository.js';
import { TurnBudget } from '../budgets/turn-budget.js';
import { DATAPLANE_CONFIG, type DataplaneEnv } from '../config/env.js';
import { EventPublisher } from '../events/event-publisher.js';
import { toStoredEvent } from '../events/event-row.mapper.js';
import { SessionEventsRepository } from '../events/session-events.repository.js';
import {
  SessionStateRepository,
  type Acquired,
  type SessionState,
  type TurnStartFacts,
} from '../sessions/session-state.repository.js';
import { SELF_HOSTED_TOOL_NAMES } from '../hands/self-hosted-tools.js';
import { handsKindOf, sandboxNetworkingOf, sandboxProviderOf } from '../hands/sandbox-networking.mapper.js';
import { runsOnClusterWorker } from '../hands/hands-tool-executor.js';
import { isClientToolResult, redundantToolResults } from '../hands/tool-call-ledger.js';
import { WorkQueue } from '../work/work-queue.service.js';
import { OutcomeLoop } from '../outcomes/outcome-loop.js';
import {
  buildConversation,
  COMPACTION_EVENT,
  danglingToolCalls,
  withReadThrough,
} from './conversation-builder.js';
import { HarnessFactory, type SessionRuntime } from './harness-factory.js';
import { toPlatformEvent, toStopReason } from './harness-event.mapper.js';
import { LeaseKeeper } from './lease-keeper.js';
import { planResume, withWaitingMessages } from './recovery-plan.js';
import { SessionInterrupts } from './session-interrupts.js';
import { SessionLogCache } from './session-log-cache.js';
import { SessionWakeups } from './session-wakeups.js';
import { isInterrupt, TurnAbort, turnInput } from './turn-abort.js';
import { SessionTermination } from './session-termination.js';
import { SharedWorkspaces } from './shared-workspaces.js';
import { SessionMountPlanner } from '../mounts/session-mount-plan.js';
import { turnFailureEvent } from './turn-failure.js';
import { MID_TURN_STATUSES, rescheduleHere } from './turn-takeover.js';
import { TurnWriter } from './turn-writer.js';
import { ThreadTurns } from '../threads/thread-turns.js';
import { threadLinkOf } from '../threads/thread-spec.js';

/** A drain runs at most this many turns before handing the session back to the queue. */
const MAX_TURNS_PER_DRAIN = 20;

interface UnderLease {
  progressed: boolean;
  /** Ids of the inbox events the lease holder saw. */
  seen: Set<string>;
  /** The turn's last write let go of the lease already. */
  released: boolean;
}

interface SessionSpec {
  agent: SessionRuntime['agent'];
  environment: { id: string; type: string; config?: Record<string, unknown> };
}

/**
 * Drains a session's inbox: one turn at a time under a fenced lease, state rebuilt from the event log,
 * every event committed before the next step outside the log, and the inbox looked at again after each
 * release, so input that arrived while the lease was held is never left behind.
 */
@Injectable()
export class TurnRunner {
  private readonly owner = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly logs: SessionLogCache;

  constructor(
    private readonly events: SessionEventsRepository,
    private readonly state: SessionStateRepository,
    private readonly publisher: EventPublisher,
    private readonly harnesses: HarnessFactory,
    private readonly workspaces: SharedWorkspaces,
    private readonly interrupts: SessionInterrupts,
    private readonly wakeups: SessionWakeups,
    private readonly work: WorkQueue,
    private readonly budgets: BudgetAdmission,
    private readonly accounts: SessionAccounts,
    private readonly termination: SessionTermination,
    private readonly outcomes: OutcomeLoop,
    private readonly threads: ThreadTurns,
    private readonly mountPlanner: SessionMountPlanner,
    @Inject(DATAPLANE_CONFIG) private readonly config: DataplaneEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.logs = new SessionLogCache(events, config.AGENTRY_LOG_CACHE_SESSIONS);
  }

  /**
   * `more` when the drain stopped with input left after its turn budget (the caller requeues it);
   * `held` when another runner holds the lease (it looks at the inbox again when it lets go).
   */
  async drain(sessionId: string): Promise<'done' | 'more' | 'held'> {
    for (let round = 0; round < MAX_TURNS_PER_DRAIN; round += 1) {
      // A lease held elsewhere is fine: its holder looks at the inbox again after releasing it.
      const from = this.logs.readFrom(sessionId);
      const acquired = await this.state.acquire(sessionId, this.owner, this.config.AGENTRY_LEASE_TTL_MS, {
        from,
        start: COMPACTION_EVENT,
      });
      if (!acquired) return round === 0 ? 'held' : 'done';
      const { lease } = acquired;
      let outcome: UnderLease | undefined;
      try {
        const log = this.logs.extend(sessionId, acquired.log.map(toStoredEvent), from);
        outcome = await this.runUnderLease(acquired, { log, endsAt: acquired.logEnd });
      } finally {
        if (!outcome?.released) await this.state.release(lease).catch(() => undefined);
      }
      const pending = await this.events.inbox(sessionId);
      if (pending.length === 0) return 'done';
      // Input the lease holder saw and could not consume (the lease was lost, the status moved) is left
      // to whoever moved it, or to the reconciler, rather than spun on; anything new gets another round.
      if (!outcome.progressed && pending.every((e) => outcome.seen.has(e.id))) return 'done';
    }
    return 'more';
  }

  /**
   * Runs at most one turn, reporting the inbox it saw and whether it consumed it or moved the session on.
   * `log` is the session's log as of the lease: the turn answers what it holds and consumes.
   */
  private async runUnderLease(
    { lease, session, facts, inbox: rows }: Acquired,
    { log, endsAt }: { log: StoredEvent[]; endsAt: number },
  ): Promise<UnderLease> {
    const keeper = new LeaseKeeper(this.state, lease, this.config.AGENTRY_LEASE_TTL_MS);
    const writer = new TurnWriter(this.events, this.publisher, lease, (stored) =>
      this.logs.remember(lease.sessionId, stored),
    );
    const seen = new Set<string>();
    const ended = (progressed: boolean): UnderLease => ({ progressed, seen, released: writer.released });
    // Listening before the inbox is read, so an interrupt appended from here on is heard by the turn.
    const abort = new TurnAbort(this.interrupts, lease.sessionId, keeper.lost.signal);
    try {
      if (session.archivedAt) return ended(false);
      const inbox = rows.map(toStoredEvent);
      for (const e of inbox) seen.add(e.event.id);
      const midTurn = MID_TURN_STATUSES.has(session.status);
      if (!midTurn && inbox.length === 0) return ended(false);
      if (!midTurn && (await this.dropRedundantResults(session.id, inbox, log))) return ended(true);
      const { input, interrupted } = turnInput(inbox);
      if (interrupted) abort.interruptNow();
      const leased = { inbox: input, log, logEndsAt: endsAt };
      return ended(await this.runTurn(session, facts, leased, writer, keeper.lost.signal, abort));
    } catch (error) {
      if (AppError.is(error, 'CONFLICT')) {
        this.logger.warn(
          { sessionId: lease.sessionId, err: error.message },
          'turn lost its lease; another runner continues',
        );
        return ended(false);
      }
      throw error;
    } finally {
      abort.dispose();
      keeper.stop();
    }
  }

  private async runTurn(
    session: SessionState,
    facts: TurnStartFacts,
    { inbox, log: leasedLog, logEndsAt }: { inbox: StoredEvent[]; log: StoredEvent[]; logEndsAt: number },
    writer: TurnWriter,
    leaseLost: AbortSignal,
    abort: TurnAbort,
  ): Promise<boolean> {
    const consumed = inbox.map((e) => e.event.id);
    if (session.status === 'terminated') {
      await writer.finish(
        ['terminated'],
        'terminated',
        { type: 'session.status_terminated' },
        { consume: consumed },
      );
      return true;
    }
    if (await this.termination.terminateIfOrphaned(facts.lost, writer, consumed)) return true;
    // Input that arrived after the lease was taken refuses the start: the drain's next round takes it too.
    const midTurn = MID_TURN_STATUSES.has(session.status);
    const started = midTurn
      ? await rescheduleHere(writer, session.status, consumed, logEndsAt)
      : await writer.start(['idle'], 'running', { type: 'session.status_running' }, consumed, logEndsAt);
    if (!started) return false;
    if (midTurn) platformMetrics().leaseTakeovers.add(1); // a cut-off turn resumed
    await this.threads.started(session, midTurn);

    const spec = session.spec as SessionSpec;
    const selfHosted = spec.environment.type === 'self_hosted';
    const selfHostedSession = {
      tenantId: session.tenantId,
      environmentId: session.environmentId,
      sessionId: session.id,
    };
    if (selfHosted) await this.work.ensureOpen(selfHostedSession);
    await this.outcomes.begin(writer.lease, inbox);
    let log = leasedLog;
    const conversation = buildConversation(log);
    const resume = planResume(
      conversation,
      log,
      inbox,
      selfHosted ? { awaitsWorker: (name) => SELF_HOSTED_TOOL_NAMES.has(name) } : {},
    );
    // A session thread's model calls are charged to the session it belongs to.
    const payer = threadLinkOf(spec)?.sessionId ?? session.id;
    const budget = new TurnBudget(
      this.budgets,
      {
        tenantId: session.tenantId,
        namespaceId: session.namespaceId,
        sessionId: payer,
        agentId: spec.agent.id,
      },
      payer === session.id ? facts.account : await this.accounts.account(payer),
    );
    const mounts = await this.mountPlanner.plan({
      tenantId: session.tenantId,
      sessionId: session.id,
      agent: spec.agent,
      writableMounts: runsOnClusterWorker(handsKindOf(spec.environment.type)),
      hasResources: facts.hasResources,
    });
    const harness = this.harnesses.create({
      meterModel: (model) => budget.meter(model),
      tools: await this.threads.toolsFor(session, writer),
      mounts,
      reportError: (error) => writer.emit({ type: 'session.error', error }),
      agent: spec.agent,
      workspace: await this.workspaces.forAgentTurn({
        tenantId: session.tenantId,
        agentId: spec.agent.id,
        sessionId: session.id,
      }),
      sessionFiles: this.workspaces.forSession({
        tenantId: session.tenantId,
        agentId: spec.agent.id,
        sessionId: session.id,
      }),
      hands: {
        tenantId: session.tenantId,
        sessionId: session.id,
        environmentId: session.environmentId,
        environmentType: handsKindOf(spec.environment.type),
        timeoutMs: this.config.AGENTRY_TOOL_TIMEOUT_MS,
        networking: sandboxNetworkingOf(spec.environment.config),
        ...sandboxProviderOf(spec.environment.config),
        mounts: mounts.mounts,
      },
    });

    let end: RunEndEvent | undefined;
    // Outcomes open when the lease was taken or defined in this input; one defined later waits for its turn.
    const outcomeMayBeOpen = facts.openOutcome || inbox.some((e) => e.event.type === 'user.define_outcome');
    try {
      let input: RunInput = { ...withWaitingMessages(conversation, resume), ...resume };
      for (;;) {
        end = undefined;
        const run = harness.run(input, { sessionId: session.id, agentId: spec.agent.id }, abort.signal);
        for await (const event of run) {
          if (event.type === 'run.end') end = event;
          else if (isPersistedEvent(event)) {
            await writer.emit(budget.priced(withReadThrough(toPlatformEvent(event), log.at(-1)?.seq ?? 0)));
          } else writer.preview(event as unknown as Record<string, unknown>);
        }
        // An open outcome is graded before the session goes idle; a verdict asking for more runs the agent again.
        if (end?.stop_reason.type !== 'end_turn' || !outcomeMayBeOpen) break;
        const grader = budget.meterBeside(this.harnesses.modelOf(spec.agent));
        if (
          !(await this.outcomes.evaluate({
            lease: writer.lease,
            writer,
            model: grader,
            work: end.conversation,
            signal: abort.signal,
          }))
        )
          break;
        log = await this.logs.read(session.id);
        input = { conversation: buildConversation(log) };
      }
    } catch (error) {
      if (leaseLost.aborted || AppError.is(error, 'CONFLICT'))
        throw new AppError('CONFLICT', 'turn lease lost');
      // Storage away for now: left mid-turn, the turn is resumed from its log (drain retry or reconciler), not ended.
      // That includes the event log's own writes failing because Postgres is shutting down or gone.
      if (isTransientOutage(error) || isDatabaseUnavailable(error)) throw error;
      this.logger.error({ sessionId: session.id, err: error }, 'turn failed');
      await writer.emit(turnFailureEvent(error));
      await this.threads.finishing(session, writer, { type: 'retries_exhausted' });
      await writer.finish(['running'], 'idle', idle({ type: 'retries_exhausted' }), {
        stopReason: { type: 'retries_exhausted' },
        usage: budget.usage.increments(),
        consume: abort.interruptsHeard,
        release: true,
      });
      return true;
    }
    if (!end) throw new AppError('INTERNAL', 'harness ended without run.end');
    const { stopReason, error } = toStopReason(end);
    // The item may have stopped while the turn ran (an idle worker leaving); suspended calls need one open.
    if (selfHosted && stopReason.type === 'requires_action') await this.work.ensureOpen(selfHostedSession);
    if (error) await writer.emit(error);
    for (const closing of budget.closingEvents(stopReason)) await writer.emit(closing);
    await this.threads.finishing(session, writer, stopReason);
    await writer.finish(['running'], 'idle', idle(stopReason), {
      stopReason,
      usage: budget.usage.increments(),
      consume: abort.interruptsHeard,
      release: true,
    });
    return true;
  }

  /**
   * Worker results that answer nothing new (a duplicate delivery, a call already closed) are consumed
   * without a turn, so they neither produce a second result nor flip the session through running.
   */
  private async dropRedundantResults(
    sessionId: string,
    inbox: StoredEvent[],
    log: StoredEvent[],
  ): Promise<boolean> {
    // An interrupt with no turn to stop and no call left waiting (which a turn would close) does nothing.
    if (inbox.every(isInterrupt) && danglingToolCalls(buildConversation(log)).length === 0) {
      await this.events.markProcessed(
        sessionId,
        inbox.map((e) => e.event.id),
      );
      return true;
    }
    if (!inbox.every(isClientToolResult)) return false;
    const redundant = redundantToolResults(log, inbox);
    if (redundant.length !== inbox.length) return false;
    await this.events.markProcessed(sessionId, redundant);
    this.logger.info({ sessionId, events: redundant }, 'ignored tool results that answer no open call');
    return true;
  }
}

function idle(stopReason: Record<string, unknown>) {
  return { type: 'session.status_idle', stop_reason: stopReason };
}
