import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { READ_ONLY_HANDS_TOOLS, type HandsExecRequest, type HandsExecResult } from '@agentry/contracts';
import { inProcessToolExecutor, type ToolOutcome } from '@agentry/harness';
import { LOGGER, type Logger } from '@agentry/platform';
import { WORKER_CONFIG, type WorkerEnv } from '../config/env.js';
import { usesE2b } from '../e2b/e2b-connection.js';
import { E2bSessionSandboxes } from '../e2b/e2b-session-sandboxes.js';
import { DurableWorkspaces } from '../workspace/durable-workspaces.js';
import { SandboxUnavailableError } from '../sandbox/session-sandbox.js';
import { EnvironmentImageError } from '../userland/environment-image-error.js';
import { MOUNTS_DIR, SessionMounts, type SyncedMounts } from '../mounts/session-mounts.js';
import { SessionRepositories } from '../resources/session-repositories.js';
import { CallTimings } from './call-timings.js';
import { HandsToolbox } from './hands-toolbox.js';
import { reachesMounts } from './reaches-mounts.js';
import { RunningToolCalls } from './running-tool-calls.js';
import { CredentialsUnavailableError, SandboxCredentialsClient } from './sandbox-credentials.client.js';
import { SessionSandboxes } from './session-sandboxes.js';
import { ToolCallsOnce } from './tool-calls-once.js';
import { ToolResultCache } from './tool-result-cache.js';
import { writtenWorkspacePath } from './written-path.js';

/** Runs one tool call in the session's sandbox, with the same tool code the harness runs in process. */
@Injectable()
export class HandsExecService {
  private readonly once = new ToolCallsOnce();

  constructor(
    private readonly sandboxes: SessionSandboxes,
    private readonly cache: ToolResultCache,
    private readonly toolbox: HandsToolbox,
    private readonly running: RunningToolCalls,
    private readonly durable: DurableWorkspaces,
    private readonly mounts: SessionMounts,
    private readonly credentials: SandboxCredentialsClient,
    private readonly repositories: SessionRepositories,
    private readonly e2b: E2bSessionSandboxes,
    @Inject(WORKER_CONFIG) private readonly config: WorkerEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * The call stops at its timeout, at a cancel from the turn (interrupt, lost lease; see RunningToolCalls)
   * or when `signal` aborts; its processes are killed and the result says it was cancelled.
   */
  execute(request: HandsExecRequest, signal?: AbortSignal): Promise<HandsExecResult> {
    // A copy of a request this worker already took (the Brain sends again while it waits) runs nothing. A
    // cancelled result is recorded nowhere else, so it is kept for late copies; the others are recorded or
    // say the call did not run.
    return this.once.run(
      request.toolUseId,
      () => this.executeOnce(request, signal),
      (result) => result.reason === 'cancelled',
    );
  }

  /** The result of a call this worker runs or keeps, for a copy of its request (see ToolCallsOnce). */
  copyOf(toolUseId: string): Promise<HandsExecResult> | undefined {
    return this.once.known(toolUseId);
  }

  private async executeOnce(request: HandsExecRequest, signal?: AbortSignal): Promise<HandsExecResult> {
    const timings = new CallTimings();
    // Only a command reaches the network (through the egress proxy, which swaps the credentials in); the
    // file tools run on the worker's side and need none. Asked of control at once, while the call is prepared;
    // a session that lists no vaults has none to ask for.
    const command = request.name === 'bash' && !usesE2b(request.sandbox, this.config);
    const vault =
      command && request.vaults !== false ? this.credentials.of(request.tenantId, request.sessionId) : null;
    vault?.catch(() => undefined);
    // A call another worker took may have run there: a copy sent here after that worker stopped does not run it
    // again. Read-only tools run again anywhere, so a copy of one simply runs. Asked at once, while the call is
    // prepared (the workspace restored, /mnt and the repositories brought up to date: what any run of it needs,
    // and nothing its result depends on); the tool itself runs only once the answer is in.
    const readOnly = READ_ONLY_HANDS_TOOLS.has(request.name);
    const answered = readOnly ? Promise.resolve(null) : this.answeredElsewhere(request);
    answered.catch(() => undefined);
    /** A call that cannot run here: its record or the refusal if another worker took it, else `text`. */
    const notRun = async (text: string, reason: string) =>
      (await answered) ?? failure(request.toolUseId, text, reason);
    // An E2B sandbox keeps the session's files itself (paused or running): no host workspace to restore or persist.
    const inE2b = usesE2b(request.sandbox, this.config);
    // The mounts (beside the workspace, never in it) are brought up to date while the sandbox opens. A file
    // tool on a workspace path leaves /mnt as it is: nothing of it is seen by the call.
    const synced: Promise<SyncedMounts | null> = reachesMounts(request.name, request.input)
      ? Promise.resolve().then(() =>
          this.mounts.sync(
            request.tenantId,
            request.sessionId,
            join(this.sandboxes.dirOf(request.tenantId, request.sessionId), MOUNTS_DIR),
            request.mounts,
          ),
        )
      : Promise.resolve(null);
    synced.catch(() => undefined);
    const bound = request.bindingEpoch !== undefined && !inE2b;
    let moved = false;
    // A sandbox opened ahead of this call may still be mounting the workspace over what its own restore put
    // there: nothing restores or writes into it until that is done.
    if (!inE2b) await this.sandboxes.settled(request.tenantId, request.sessionId);
    if (bound) {
      try {
        ({ moved } = await this.durable.enter(
          request.tenantId,
          request.sessionId,
          this.sandboxes.durableDirsOf(request.tenantId, request.sessionId),
          request.bindingEpoch!,
        ));
      } catch (err) {
        this.logger.error({ sessionId: request.sessionId, err }, 'session workspace could not be restored');
        return notRun(
          "The session's workspace could not be restored on this worker; the call did not run",
          'workspace_unavailable',
        );
      }
    }
    timings.mark('enter');
    let mounts: SyncedMounts | null = null;
    try {
      mounts = await synced;
    } catch (err) {
      this.logger.error(
        { sessionId: request.sessionId, err },
        'session mounts could not be brought up to date',
      );
      return notRun(
        "The session's mounted files (/mnt) could not be prepared on this worker; the call did not run",
        'mounts_unavailable',
      );
    }
    timings.mark('mounts');
    // The session's repositories are there before its first call runs; a failed clone does not fail the call,
    // it is reported with the result (a `session.error` of the turn).
    const workspaceDir = join(this.sandboxes.dirOf(request.tenantId, request.sessionId), 'workspace');
    const sessionErrors = inE2b
      ? []
      : ((await this.sandboxes
          .writeOutsideOpening(request.tenantId, request.sessionId, () =>
            this.repositories.ensure(
              request.tenantId,
              request.sessionId,
              workspaceDir,
              request.networking,
              request.bindingEpoch,
            ),
          )
          .catch(() => [])) ?? []);
    timings.mark('repositories');
    const elsewhere = await answered;
    if (elsewhere) {
      if (moved) this.durable.stillUntold(request.tenantId, request.sessionId);
      return elsewhere;
    }
    timings.mark('claim');
    const cancel = this.running.start(request.toolUseId);
    const stops = AbortSignal.any([
      cancel,
      AbortSignal.timeout(request.timeoutMs),
      ...(signal ? [signal] : []),
    ]);
    let outcome: ToolOutcome | null | undefined;
    try {
      // Null leaves the sandbox the credentials it has; a command of a session without vaults gets none.
      const credentials = cancel.aborted ? null : vault ? await vault : command ? [] : null;
      timings.mark('vault');
      const timeouts = {
        defaultMs: this.config.AGENTRY_SANDBOX_DEFAULT_TIMEOUT_MS,
        callMs: request.timeoutMs,
      };
      const context = {
        toolCallId: request.toolUseId,
        mounts: mounts?.files ?? [],
        signal: stops,
        sessionId: request.sessionId,
        agentId: '',
        values: {},
      };
      outcome = cancel.aborted
        ? undefined
        : inE2b
          ? await this.e2b.use(
              request.tenantId,
              request.sessionId,
              request.sandbox,
              request.networking,
              (sandbox) => {
                const tool = this.toolbox.get(request.name, sandbox, timeouts);
                if (!tool) return Promise.resolve(null);
                return inProcessToolExecutor.execute({
                  tool,
                  input: request.input,
                  context: { ...context, fs: sandbox.fs },
                });
              },
            )
          : await this.sandboxes.use(
              request.tenantId,
              request.sessionId,
              request.networking,
              credentials,
              (sandbox) => {
                const tool = this.toolbox.get(request.name, sandbox, timeouts);
                if (!tool) return Promise.resolve(null);
                if (mounts) sandbox.fs.setExtraBinds(mounts.writableBinds);
                // Told below that its processes are gone: a sandbox kept here from before the move must not outlive that.
                if (moved) sandbox.fs.restartKept();
                return inProcessToolExecutor.execute({
                  tool,
                  input: request.input,
                  context: { ...context, fs: sandbox.fs },
                });
              },
            );
    } catch (err) {
      // Tool failures are outcomes already; what throws here is the sandbox failing to open. Not cached: a retry may work.
      if (err instanceof CredentialsUnavailableError)
        return failure(
          request.toolUseId,
          "The session's vault credentials could not be loaded (the control service did not answer); the call did not run",
          'credentials_unavailable',
        );
      this.logger.error({ sessionId: request.sessionId, err }, 'session sandbox could not start');
      if (err instanceof SandboxUnavailableError) return unavailable(request.toolUseId, err);
      return failure(
        request.toolUseId,
        inE2b
          ? `The session's E2B sandbox could not be reached (${describe(err)}); the call did not run`
          : "The session's sandbox could not be started on this worker; the call did not run",
        'sandbox_unavailable',
      );
    } finally {
      this.running.finish(request.toolUseId);
      timings.mark('tool');
      // Whatever the call got to write before it ended (even cancelled) is the session's state now.
      if (bound) await this.persist(request, outcome?.status === 'ok');
      timings.mark('persist');
    }
    const unsaved = await this.mounts.writeBack(request.tenantId, request.sessionId);
    timings.mark('writeBack');
    if (outcome === null)
      return failure(
        request.toolUseId,
        `Tool ${request.name} is not available in this environment`,
        'unknown_tool',
      );
    if (!outcome || cancel.aborted) {
      return failure(
        request.toolUseId,
        `[cancelled] The tool call was cancelled (${String(cancel.reason)}) before it finished`,
        'cancelled',
      );
    }
    const text =
      outcome.status === 'pending'
        ? []
        : outcome.content.flatMap((b) =>
            b.type === 'text' ? [{ type: 'text' as const, text: b.text }] : [],
          );
    const result: HandsExecResult = {
      toolUseId: request.toolUseId,
      isError: outcome.status !== 'ok' || unsaved.length > 0,
      content: [
        ...(moved ? [{ type: 'text' as const, text: SANDBOX_REPLACED }] : []),
        ...text,
        ...unsaved.map((line) => ({ type: 'text' as const, text: line })),
      ],
      ...(outcome.status === 'error' && outcome.reason ? { reason: outcome.reason } : {}),
      ...(sessionErrors.length > 0 ? { sessionErrors } : {}),
    };
    // The record stands in for a reply lost on the way (see the Brain's recorded-result watch), and answers a
    // copy of the request that reaches any worker later. It is written beside the reply, after the call's
    // files are durable; until it is in, a copy reaching this worker gets the result from ToolCallsOnce.
    const recorded = this.cache
      .put(result)
      .catch((err: unknown) =>
        this.logger.warn({ sessionId: request.sessionId, err }, 'tool result could not be recorded'),
      );
    if (!readOnly) this.once.holdUntil(request.toolUseId, recorded);
    this.logger.debug(
      { sessionId: request.sessionId, tool: request.name, ms: timings.summary() },
      'tool call timings',
    );
    this.logger.info(
      { sessionId: request.sessionId, tool: request.name, isError: result.isError },
      'tool executed',
    );
    return result;
  }

  /**
   * What a copy of a call that may change something is answered without running: the call's record, or a
   * refusal when another worker took it first. Null: this worker holds the call and runs it.
   */
  private async answeredElsewhere(request: HandsExecRequest): Promise<HandsExecResult | null> {
    const taken = await this.cache.recordedOrClaim(request.toolUseId, request.timeoutMs + CLAIM_MARGIN_MS);
    if ('recorded' in taken) return taken.recorded;
    if (taken.claimed) return null;
    return failure(
      request.toolUseId,
      '[interrupted] The tool call was started on another worker, which stopped before answering: it may or may not have run, and was not run again',
      'interrupted',
    );
  }

  /** `succeeded`: the call answered ok, so a `write` or `edit` changed its one file and nothing else. */
  private async persist(request: HandsExecRequest, succeeded: boolean): Promise<void> {
    const written = succeeded ? writtenWorkspacePath(request.name, request.input) : undefined;
    try {
      await this.durable.leave(request.tenantId, request.sessionId, request.name, written);
    } catch (err) {
      this.logger.error(
        { sessionId: request.sessionId, err },
        'session workspace changes could not be persisted',
      );
    }
  }
}

/** How long a worker's claim on a call outlives the call's own timeout: its workspace save comes after. */
const CLAIM_MARGIN_MS = 60_000;

/** The first result after the session came from another worker says what it kept and what it lost. */
const SANDBOX_REPLACED =
  '[sandbox replaced] This session moved to a new sandbox before this call: the files under /workspace, the working directory and exported variables were kept; running processes and anything outside /workspace are gone.\n';

/** The sandbox cannot run the call as its environment asks (no image, no network): the result says why. */
function unavailable(toolUseId: string, error: SandboxUnavailableError): HandsExecResult {
  const image = error instanceof EnvironmentImageError;
  return {
    ...failure(toolUseId, error.message, image ? 'environment_image_failed' : 'sandbox_unavailable'),
    ...(image
      ? {
          sessionErrors: [
            { type: 'unknown_error', message: error.message, retry_status: { type: 'terminal' } },
          ],
        }
      : {}),
  };
}

function failure(toolUseId: string, text: string, reason: string): HandsExecResult {
  return { toolUseId, isError: true, content: [{ type: 'text', text }], reason };
}

/** What went wrong reaching E2B, by the SDK's error name and message (neither carries the API key). */
function describe(err: unknown): string {
  const { name = 'Error', message = String(err) } = (err ?? {}) as { name?: string; message?: string };
  return `${name}: ${message}`.slice(0, 500);
}
