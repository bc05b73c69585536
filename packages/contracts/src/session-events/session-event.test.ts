import { describe, expect, it } from 'vitest';
import type { BetaManagedAgentsSessionEvent } from '@anthropic-ai/sdk/resources/beta/sessions/events.js';
import type {
  BetaManagedAgentsBedrockAgentMCPElicitationEvent,
  BetaManagedAgentsBedrockUserMCPElicitationResponseEvent,
} from '@anthropic-ai/sdk/resources/beta/bedrock/sessions/events.js';
import {
  EventPayloadSchema,
  SessionEventSchema,
  splitSessionEvent,
  toSessionEvent,
} from './session-event.js';
import { OUTBOUND_EVENT_TYPES, INBOUND_EVENT_TYPES } from './event-types.js';
import { EventDeltaSchema, EventStartSchema } from './stream-events.js';
import { toSessionErrorObject } from './session-error.js';

const at = '2026-11-30T12:00:00.000Z';
const retrying = { type: 'retrying' } as const;

/** One wire example per event type, typed by the SDK so the shapes are the ones clients decode. */
const sdkEvents: Array<
  | BetaManagedAgentsSessionEvent
  | BetaManagedAgentsBedrockAgentMCPElicitationEvent
  | BetaManagedAgentsBedrockUserMCPElicitationResponseEvent
> = [
  { id: 'sevt_1', type: 'user.message', processed_at: null, content: [{ type: 'text', text: 'hi' }] },
  { id: 'sevt_2', type: 'user.interrupt', processed_at: at, session_thread_id: null },
  { id: 'sevt_3', type: 'user.tool_confirmation', processed_at: at, tool_use_id: 'sevt_9', result: 'allow' },
  {
    id: 'sevt_4',
    type: 'user.tool_result',
    processed_at: at,
    tool_use_id: 'sevt_9',
    content: [{ type: 'text', text: 'done' }],
    is_error: false,
  },
  {
    id: 'sevt_5',
    type: 'user.custom_tool_result',
    processed_at: at,
    custom_tool_use_id: 'sevt_8',
    content: [],
  },
  {
    id: 'sevt_6',
    type: 'user.define_outcome',
    processed_at: at,
    description: 'ship it',
    outcome_id: 'outc_1',
    max_iterations: null,
    rubric: { type: 'text', content: 'green build' },
  },
  { id: 'sevt_7', type: 'system.message', processed_at: at, content: [{ type: 'text', text: 'be brief' }] },
  {
    id: 'sevt_10',
    type: 'agent.message',
    processed_at: at,
    content: [{ type: 'text', text: 'hello' }, { type: 'redacted' }],
  },
  { id: 'sevt_11', type: 'agent.thinking', processed_at: at },
  {
    id: 'sevt_12',
    type: 'agent.tool_use',
    processed_at: at,
    name: 'bash',
    input: { command: 'ls' },
    evaluated_permission: 'ask',
    evaluation: { type: 'auto', evaluated_permission: { type: 'ask', reason_code: 'high_risk' } },
  },
  {
    id: 'sevt_13',
    type: 'agent.tool_result',
    processed_at: at,
    tool_use_id: 'sevt_12',
    content: [{ type: 'text', text: 'a.txt' }],
    is_error: false,
  },
  {
    id: 'sevt_14',
    type: 'agent.mcp_tool_use',
    processed_at: at,
    mcp_server_name: 'github',
    name: 'search',
    input: {},
    evaluated_permission: 'allow',
  },
  {
    id: 'sevt_15',
    type: 'agent.mcp_tool_result',
    processed_at: at,
    mcp_tool_use_id: 'sevt_14',
    is_error: true,
  },
  {
    id: 'sevt_16',
    type: 'agent.custom_tool_use',
    processed_at: at,
    name: 'lookup_order',
    input: { order: 1234 },
  },
  { id: 'sevt_17', type: 'agent.thread_context_compacted', processed_at: at },
  { id: 'sevt_18', type: 'session.status_running', processed_at: at },
  {
    id: 'sevt_19',
    type: 'session.status_idle',
    processed_at: at,
    stop_reason: { type: 'requires_action', event_ids: ['sevt_12'] },
    stop_details: null,
  },
  { id: 'sevt_20', type: 'session.status_terminated', processed_at: at },
  { id: 'sevt_21', type: 'session.status_rescheduled', processed_at: at },
  {
    id: 'sevt_22',
    type: 'session.error',
    processed_at: at,
    error: {
      type: 'mcp_connection_failed_error',
      message: 'refused',
      mcp_server_name: 'github',
      retry_status: retrying,
    },
  },
  {
    id: 'sevt_23',
    type: 'session.usage',
    processed_at: at,
    usage: { input_tokens: 10, output_tokens: 5, list_cost: { amount: '0.01', currency: 'USD' } },
  },
  // Agentry extension (a rollback's marker): no SDK type has its shape.
  {
    id: 'sevt_23b',
    type: 'session.rolled_back',
    processed_at: at,
    checkpoint_id: 'ckpt_1',
    to_event_id: 'sevt_20',
    to_seq: 20,
  } as unknown as BetaManagedAgentsSessionEvent,
  { id: 'sevt_24', type: 'span.model_request_start', processed_at: at },
  {
    id: 'sevt_25',
    type: 'span.model_request_end',
    processed_at: at,
    is_error: false,
    model_request_start_id: 'sevt_24',
    model_usage: {
      input_tokens: 10,
      output_tokens: 5,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  },
  {
    id: 'sevt_26',
    type: 'span.outcome_evaluation_start',
    processed_at: at,
    outcome_id: 'outc_1',
    iteration: 0,
  },
  {
    id: 'sevt_27',
    type: 'span.outcome_evaluation_ongoing',
    processed_at: at,
    outcome_id: 'outc_1',
    iteration: 0,
  },
  {
    id: 'sevt_28',
    type: 'span.outcome_evaluation_end',
    processed_at: at,
    outcome_id: 'outc_1',
    iteration: 0,
    outcome_evaluation_start_id: 'sevt_26',
    result: 'needs_revision',
    explanation: 'The summary misses the totals.',
    usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  },
  {
    id: 'sevt_36',
    type: 'session.thread_created',
    processed_at: at,
    session_thread_id: 'sthr_1',
    agent_name: 'researcher',
    workflow_run_id: null,
  },
  {
    id: 'sevt_37',
    type: 'session.thread_status_running',
    processed_at: at,
    session_thread_id: 'sthr_1',
    agent_name: 'researcher',
  },
  {
    id: 'sevt_38',
    type: 'session.thread_status_idle',
    processed_at: at,
    session_thread_id: 'sthr_1',
    agent_name: 'researcher',
    stop_reason: { type: 'end_turn' },
    stop_details: null,
  },
  {
    id: 'sevt_39',
    type: 'session.thread_status_rescheduled',
    processed_at: at,
    session_thread_id: 'sthr_1',
    agent_name: 'researcher',
  },
  {
    id: 'sevt_40',
    type: 'session.thread_status_terminated',
    processed_at: at,
    session_thread_id: 'sthr_1',
    agent_name: 'researcher',
  },
  {
    id: 'sevt_41',
    type: 'agent.thread_message_sent',
    processed_at: at,
    content: [{ type: 'text', text: 'Find it.' }],
    to_session_thread_id: 'sthr_1',
    to_agent_name: 'researcher',
  },
  {
    id: 'sevt_42',
    type: 'agent.thread_message_received',
    processed_at: at,
    content: [{ type: 'text', text: 'Found it.' }],
    from_session_thread_id: 'sthr_1',
    from_agent_name: 'researcher',
  },
  {
    id: 'sevt_43',
    type: 'workflow_run.created',
    processed_at: at,
    workflow_run_id: 'wfrun_1',
    name: 'fan',
    description: null,
    phases: [{ id: 'wfrun_1_phase_1', name: 'fan-out', description: null }],
  },
  { id: 'sevt_44', type: 'workflow_run.status_running', processed_at: at, workflow_run_id: 'wfrun_1' },
  { id: 'sevt_45', type: 'workflow_run.status_idle', processed_at: at, workflow_run_id: 'wfrun_1' },
  {
    id: 'sevt_46',
    type: 'workflow_run.phase_started',
    processed_at: at,
    workflow_run_id: 'wfrun_1',
    workflow_run_phase_id: 'wfrun_1_phase_1',
  },
  {
    id: 'sevt_47',
    type: 'workflow_run.phase_ended',
    processed_at: at,
    workflow_run_id: 'wfrun_1',
    workflow_run_phase_id: 'wfrun_1_phase_1',
    phase_started_id: 'sevt_46',
  },
  {
    id: 'sevt_48',
    type: 'workflow_run.error',
    processed_at: at,
    workflow_run_id: 'wfrun_1',
    error: { type: 'program_error', message: 'The plan failed.' },
  },
  {
    id: 'sevt_49',
    type: 'workflow_run.status_ended',
    processed_at: at,
    workflow_run_id: 'wfrun_1',
    result: { type: 'error', error: { type: 'program_error', message: 'The plan failed.' } },
  },
  {
    id: 'sevt_93',
    type: 'agent.mcp_elicitation',
    processed_at: at,
    mcp_server_name: 'calendar',
    mcp_tool_use_id: 'sevt_14',
    request: { type: 'url', message: 'Sign in', url: 'https://auth.example.com/consent' },
    session_thread_id: null,
  },
  {
    id: 'sevt_94',
    type: 'user.mcp_elicitation_response',
    processed_at: at,
    mcp_elicitation_id: 'sevt_93',
    response: { type: 'accept' },
    sent_by: null,
    session_thread_id: null,
  },
];

describe('SessionEventSchema', () => {
  it('covers every inbound and outbound type with an SDK-shaped example', () => {
    const covered = new Set(sdkEvents.map((e) => e.type));
    for (const type of [...INBOUND_EVENT_TYPES, ...OUTBOUND_EVENT_TYPES]) expect(covered).toContain(type);
  });

  it.each(sdkEvents.map((e) => [e.type, e] as const))('parses %s as the SDK shapes it', (_type, event) => {
    const wire = { ...event, processed_at: event.processed_at ?? null, created_at: at };
    expect(SessionEventSchema.parse(wire)).toEqual(wire);
  });

  it('rejects a malformed payload and names the field', () => {
    const result = SessionEventSchema.safeParse({
      id: 'sevt_1',
      type: 'session.status_idle',
      processed_at: at,
      created_at: at,
      stop_reason: { type: 'requires_action' },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['stop_reason', 'event_ids']);
  });

  it('rejects an unknown session error type', () => {
    const result = EventPayloadSchema.safeParse({
      type: 'session.error',
      error: { type: 'disk_full_error', message: 'x', retry_status: retrying },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['error', 'type']);
  });

  it('flattens a row into the wire shape and back', () => {
    const payload = EventPayloadSchema.parse({
      type: 'agent.message',
      content: [{ type: 'text', text: 'hi' }],
    });
    const envelope = { id: 'sevt_1', processed_at: at, created_at: at };
    const wire = toSessionEvent(envelope, payload);
    expect(wire).toEqual({
      id: 'sevt_1',
      processed_at: at,
      created_at: at,
      type: 'agent.message',
      content: [{ type: 'text', text: 'hi' }],
    });
    expect(splitSessionEvent(wire)).toEqual({ envelope, payload });
  });

  it('accepts the Agentry `interrupted` stop reason', () => {
    const idle = { type: 'session.status_idle', stop_reason: { type: 'interrupted' } };
    expect(EventPayloadSchema.parse(idle)).toEqual(idle);
  });
});

describe('stream-only frames', () => {
  it('parse event_start and event_delta as the SDK streams them', () => {
    expect(
      EventStartSchema.parse({ type: 'event_start', event: { id: 'sevt_1', type: 'agent.message' } }).event
        .id,
    ).toBe('sevt_1');
    const delta = {
      type: 'event_delta',
      event_id: 'sevt_1',
      delta: { type: 'content_delta', content: { type: 'text', text: 'He' }, index: 0 },
    };
    expect(EventDeltaSchema.parse(delta)).toEqual(delta);
  });
});

describe('session.error from platform errors', () => {
  it('maps model failures to their CMA type and keeps the retry status', () => {
    const payload = EventPayloadSchema.parse({
      type: 'session.error',
      error: toSessionErrorObject({ code: 'MODEL_OVERLOADED', message: 'overloaded' }, 'retrying'),
    });
    expect(payload).toEqual({
      type: 'session.error',
      error: { type: 'model_overloaded_error', message: 'overloaded', retry_status: { type: 'retrying' } },
    });
    expect(toSessionErrorObject({ code: 'INTERNAL', message: 'x' }, 'terminal').type).toBe('unknown_error');
    expect(
      toSessionErrorObject({ code: 'MCP_CONNECTION_FAILED', message: 'x' }, 'exhausted', {
        mcp_server_name: 'github',
      }),
    ).toMatchObject({
      type: 'mcp_connection_failed_error',
      mcp_server_name: 'github',
    });
  });
});
