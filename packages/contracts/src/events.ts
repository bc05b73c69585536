// Session events: what clients send, what sessions emit, and the stream-only previews between them.
export { StreamEventsParamsSchema } from './session-events/event-list-params.js';
export { SendEventsRequestSchema } from './session-events/inbound-events.js';
export type {
  InboundEvent,
  SendEventsRequest,
  UserMessageEventParams,
} from './session-events/inbound-events.js';
export type { BudgetLimit, ModelUsage, MonetaryAmount } from './session-events/outbound-events.js';
export { DEFAULT_OUTCOME_MAX_ITERATIONS, OutcomeVerdictSchema } from './session-events/outcome-events.js';
export type { OutcomeVerdict } from './session-events/outcome-events.js';
export type { SessionErrorObject, SessionErrorType } from './session-events/session-error.js';
export { SessionEventSchema } from './session-events/session-event.js';
export type { SessionEvent } from './session-events/session-event.js';
export type { StopReason } from './session-events/stop-reason.js';
export { StreamOnlyBatchSchema } from './session-events/stream-events.js';
export type { DeltaType, StreamOnlyBatch, StreamOnlyEvent } from './session-events/stream-events.js';
