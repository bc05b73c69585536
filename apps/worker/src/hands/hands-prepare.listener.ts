import { Inject, Injectable } from '@nestjs/common';
import { HandsPrepareSchema, HandsSubjects, type HandsPrepare } from '@agentry/contracts';
import { LOGGER, NatsBus, type Logger } from '@agentry/platform';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';
import { usesE2b } from '../e2b/e2b-connection.js';
import { E2bSessionSandboxes } from '../e2b/e2b-session-sandboxes.js';
import { DurableWorkspaces } from '../workspace/durable-workspaces.js';
import { HandsBroadcastListener } from './hands-broadcast.listener.js';
import { SandboxCredentialsClient } from './sandbox-credentials.client.js';
import { StepTimings } from '../sandbox/step-timings.js';
import { SessionSandboxes } from './session-sandboxes.js';
import { WORKER_ID } from './worker-identity.js';

/**
 * Opens a session's sandbox ahead of its first tool call, when its turn starts (see the dataplane's
 * HandsWarmup): the workspace restored under the binding's epoch, the environment image built, the
 * bubblewrap sandbox or E2B sandbox made. Only this worker hears its own subject. The tool call that
 * comes next shares what is being opened (SessionSandboxes keeps one pending open per session), so a
 * failure here costs nothing: that call opens the sandbox itself and reports what goes wrong.
 */
@Injectable()
export class HandsPrepareListener extends HandsBroadcastListener<HandsPrepare> {
  constructor(
    bus: NatsBus,
    private readonly sandboxes: SessionSandboxes,
    private readonly e2b: E2bSessionSandboxes,
    private readonly durable: DurableWorkspaces,
    private readonly credentials: SandboxCredentialsClient,
    @Inject(WORKER_CONFIG) private readonly config: WorkerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super(bus, HandsSubjects.prepareOn(WORKER_ID), HandsPrepareSchema);
  }

  protected override handle(request: HandsPrepare): void {
    this.prepare(request).catch((err: unknown) =>
      this.logger.warn({ sessionId: request.sessionId, err }, 'the sandbox could not be opened ahead'),
    );
  }

  private async prepare(request: HandsPrepare): Promise<void> {
    const { tenantId, sessionId, networking, bindingEpoch } = request;
    const idle = () => Promise.resolve(undefined);
    if (usesE2b(request.sandbox, this.config)) {
      await this.e2b.use(tenantId, sessionId, request.sandbox, networking, idle);
      return;
    }
    // The restore, the credentials and the open start together: the open waits for the restore only
    // before it mounts the workspace (SessionSandboxes.prepare).
    const restored: Promise<unknown> =
      bindingEpoch === undefined
        ? Promise.resolve()
        : this.durable.enter(
            tenantId,
            sessionId,
            this.sandboxes.durableDirsOf(tenantId, sessionId),
            bindingEpoch,
            { tellsModel: false },
          );
    const t = new StepTimings();
    await Promise.all([
      t.time('enter', () => restored),
      t.time('open', () =>
        this.sandboxes.prepare(
          tenantId,
          sessionId,
          networking,
          () => this.credentials.of(tenantId, sessionId),
          restored,
        ),
      ),
    ]);
    this.logger.debug({ sessionId, ...t.summary() }, 'sandbox opened ahead of the first tool call');
  }
}
