import type { HandsBinding, HandsBindings } from './hands-bindings.js';

/** How long a binding looked up ahead of its call is still sent by: about the time a tool_use takes to commit. */
const EARLY_BINDING_MS = 1_000;

interface Found {
  binding: HandsBinding;
  at: number;
}

/**
 * Bindings looked up while a call's `tool_use` is recorded (ToolExecutor.expect), each taken once by its
 * call, so the Redis round trip of the binding is not added to the call's. One that failed, or settled more
 * than a second before its call came, is dropped: the call binds again, as it would have without the head
 * start (a worker found alive then may have died since).
 */
export class EarlyBindings {
  private readonly looking = new Map<string, Promise<Found | null>>();

  constructor(
    private readonly bindings: HandsBindings,
    private readonly tenantId: string,
    private readonly sessionId: string,
    private readonly now: () => number = () => performance.now(),
    private readonly maxAgeMs = EARLY_BINDING_MS,
  ) {}

  start(toolCallId: string): void {
    const found = this.bindings.bind(this.tenantId, this.sessionId).then(
      (binding) => ({ binding, at: this.now() }),
      () => null,
    );
    this.looking.set(toolCallId, found);
  }

  /** The binding looked up for this call, if there is one still fresh; null: bind now. */
  async take(toolCallId: string): Promise<HandsBinding | null> {
    const looking = this.looking.get(toolCallId);
    if (!looking) return null;
    this.looking.delete(toolCallId);
    const found = await looking;
    return found && this.now() - found.at <= this.maxAgeMs ? found.binding : null;
  }
}
