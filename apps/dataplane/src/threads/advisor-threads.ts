import { Injectable } from '@nestjs/common';
import type { ModelPort } from '@agentry/harness';
import type { SessionAgent } from '@agentry/contracts';
import { EventPublisher } from '../event-log/event-publisher.js';
import { toStoredEvent } from '../event-log/event-row.mapper.js';
import type { SessionState } from '../sessions/session-state.repository.js';
import type { TurnWriter } from '../sessions/turn-writer.js';
import type { RunSpec, ThreadLink } from './thread-spec.js';
import { derivedId, ThreadStore } from './thread-store.repository.js';

const ADVISOR_NAME = 'advisor';
const ADVISOR_SYSTEM =
  'You are an advisor to another agent. Answer its question with concise, concrete advice; you cannot act yourself.';

/** The advisor's model for a call, metered by the session's budgets and counted on the advisor's thread. */
export type AdvisorModelFor = (model: string, threadId: string) => Promise<ModelPort>;

/**
 * The advisor as CMA shows it: a thread of the session (`agent: {type: "advisor", model}`) whose log holds
 * each question, the model call's span with its usage, and the answer. Its events are written under ids
 * fixed by the asking tool call, so a re-run after a crash reads the answer instead of asking again.
 */
@Injectable()
export class AdvisorThreads {
  constructor(
    private readonly store: ThreadStore,
    private readonly publisher: EventPublisher,
  ) {}

  async consult(
    session: SessionState,
    writer: TurnWriter,
    call: { model: string; question: string; toolUseId: string; signal: AbortSignal },
    modelFor: AdvisorModelFor,
  ): Promise<string> {
    const spec = session.spec as RunSpec;
    const primaryThreadId = await this.store.ensurePrimary(session.id, session.tenantId, spec.agent);
    const agent: SessionAgent = {
      ...spec.agent,
      name: ADVISOR_NAME,
      description: null,
      system: ADVISOR_SYSTEM,
      model: { id: call.model },
      multiagent: null,
    };
    const link: ThreadLink = { sessionId: session.id, primaryThreadId, agentName: ADVISOR_NAME };
    const thread = await this.store.findOrCreate(
      { sessionId: session.id, primaryThreadId },
      agent,
      { agent, environment: spec.environment, thread: link },
      undefined,
      { type: 'advisor', model: call.model },
    );
    if (thread.created)
      await writer.emit({
        type: 'session.thread_created',
        session_thread_id: thread.id,
        agent_name: ADVISOR_NAME,
        workflow_run_id: null,
      });
    const id = (purpose: string) => derivedId(call.toolUseId, `advisor-${purpose}`);
    const [answered] = await this.store.eventsOf(thread.id, [id('answer')]);
    if (answered) return textOf(answered.payload.content);

    const content = [{ type: 'text' as const, text: call.question }];
    await this.append(thread.id, session.tenantId, [
      {
        id: id('question'),
        type: 'agent.thread_message_received',
        payload: { content, from_session_thread_id: primaryThreadId, from_agent_name: null },
      },
      { id: id('start'), type: 'span.model_request_start', payload: { model: call.model } },
    ]);
    const model = await modelFor(call.model, thread.id);
    let answer = '';
    let usage: Record<string, number> | undefined;
    try {
      for await (const event of model.stream(
        {
          messages: [
            { role: 'system', content: ADVISOR_SYSTEM },
            { role: 'user', content },
          ],
        },
        call.signal,
      )) {
        if (event.type !== 'done') continue;
        answer = event.message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
        usage = {
          input_tokens: event.usage.inputTokens,
          output_tokens: event.usage.outputTokens,
          cache_read_input_tokens: event.usage.cacheReadInputTokens ?? 0,
          cache_creation_input_tokens: event.usage.cacheCreationInputTokens ?? 0,
        };
      }
    } catch (error) {
      // A call that reported no usage cost nothing (docs/budgets.md); its span says it failed.
      await this.append(thread.id, session.tenantId, [
        { id: id('end'), type: 'span.model_request_end', payload: spanEnd(id('start'), true) },
      ]);
      throw error;
    }
    const reply = [{ type: 'text', text: answer }];
    await this.append(thread.id, session.tenantId, [
      { id: id('end'), type: 'span.model_request_end', payload: spanEnd(id('start'), false, usage) },
      { id: id('answer'), type: 'agent.message', payload: { content: reply } },
      {
        id: id('sent'),
        type: 'agent.thread_message_sent',
        payload: { content: reply, to_session_thread_id: primaryThreadId, to_agent_name: null },
      },
    ]);
    return answer;
  }

  private async append(
    threadId: string,
    tenantId: string,
    events: Array<{ id: string; type: string; payload: Record<string, unknown> }>,
  ): Promise<void> {
    const rows = await this.store.appendOnce(
      threadId,
      tenantId,
      events.map((e) => ({ ...e, processed: true })),
    );
    this.publisher.published(threadId, rows.map(toStoredEvent));
  }
}

function spanEnd(startId: string, isError: boolean, usage?: Record<string, number>): Record<string, unknown> {
  return { model_request_start_id: startId, is_error: isError, ...(usage ? { model_usage: usage } : {}) };
}

function textOf(content: unknown): string {
  return ((content as Array<{ type?: string; text?: string }> | undefined) ?? [])
    .flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : []))
    .join('');
}
