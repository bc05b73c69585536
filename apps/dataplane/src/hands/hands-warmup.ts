import { HandsSubjects, type HandsPrepare } from '@agentry/contracts';
import type { Logger, NatsBus } from '@agentry/platform';
import type { HandsBindings } from './hands-bindings.js';
import { runsOnClusterWorker, type HandsTarget } from './hands-tool-executor.js';

/**
 * Lazy sandbox, eager model: when a turn starts, the session's worker is asked to open its sandbox (and
 * build its environment image, or create its E2B sandbox) while the model is asked. Nothing waits for
 * it: a turn that calls no tool never pays for the sandbox, and the first tool call finds it ready or
 * being made. A lost request only means the first call opens the sandbox itself, as it always can.
 */
export class HandsWarmup {
  constructor(
    private readonly bus: NatsBus,
    private readonly bindings: HandsBindings,
    private readonly logger: Logger,
  ) {}

  warm(target: HandsTarget): void {
    const { environmentType } = target;
    if (!runsOnClusterWorker(environmentType)) return;
    this.bindings.bind(target.tenantId, target.sessionId).then(
      (binding) => {
        const request: HandsPrepare = {
          v: 1,
          tenantId: target.tenantId,
          sessionId: target.sessionId,
          environmentId: target.environmentId,
          environmentType,
          networking: target.networking,
          ...(target.sandbox ? { sandbox: target.sandbox } : {}),
          bindingEpoch: binding.epoch,
        };
        this.bus.publish(HandsSubjects.prepareOn(binding.workerId), request);
      },
      // No live worker now: the first tool call says so, if the turn makes one.
      (err: unknown) => this.logger.debug({ sessionId: target.sessionId, err }, 'sandbox not prepared ahead'),
    );
  }
}
