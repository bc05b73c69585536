// Session events: what clients send, what sessions emit, and the stream-only previews between them.
export * from './session-events/content-blocks.js';
export * from './session-events/event-list-params.js';
export * from './session-events/event-types.js';
export * from './session-events/inbound-events.js';
export * from './session-events/inbound-payloads.js';
export * from './session-events/outbound-events.js';
export * from './session-events/outcome-events.js';
export * from './session-events/session-error.js';
export * from './session-events/session-event.js';
export * from './session-events/stop-reason.js';
export * from './session-events/stream-events.js';
export * from './sessions/thread-events.js';
export * from './sessions/workflow-events.js';
