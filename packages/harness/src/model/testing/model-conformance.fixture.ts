import type { ModelPort } from '../model-port.js';

/** A backend reply, stated independently of any provider's wire format. */
export type ConformanceReply =
  | { kind: 'text'; text: string; usage?: { inputTokens: number; outputTokens: number } }
  | {
      kind: 'tool_calls';
      calls: Array<{ id: string; name: string; input: Record<string, unknown> }>;
      text?: string;
    }
  /** 429 with Retry-After: 0. */
  | { kind: 'rate_limited' }
  /** 529 / 503 overloaded. */
  | { kind: 'overloaded' }
  /** The provider's "prompt does not fit the context window" error. */
  | { kind: 'context_overflow' }
  /** Starts streaming `text`, then never finishes. */
  | { kind: 'hang'; text: string };

/** What the backend received in one request, in neutral form. */
export interface ConformanceObservedRequest {
  systemText: string;
  toolNames: string[];
  /** Tool calls of the assistant turns sent back, in order. */
  assistantToolCalls: Array<{ id: string; name: string; input: Record<string, unknown> }>;
  /** Tool results sent, in order. */
  toolResults: Array<{ toolCallId: string; text: string; isError: boolean }>;
}

/**
 * What an adapter under test provides to the conformance suite: the model (with fast retries, e.g. a 5 ms base
 * delay) and a programmable backend.
 */
export interface ModelConformanceFixture {
  model: ModelPort;
  enqueue(...replies: ConformanceReply[]): void;
  /** Number of requests the backend received since the last reset. */
  requestCount(): number;
  /** The last request the backend received. */
  lastRequest(): ConformanceObservedRequest;
  reset(): void;
  close(): Promise<void>;
}
