import { Inject, Injectable } from '@nestjs/common';
import type { ServiceDatabase } from '@agentry/db';
import { DATABASE } from '@agentry/platform';
import { HarnessFactory } from '../agent-harness/harness-factory.js';
import { BudgetAdmission } from '../budgets/budget-admission.service.js';
import { dreamMessages, parseDreamReply, type DreamMemory } from './dream-prompt.js';

interface DreamWork {
  tenantId: string;
  namespaceId: string;
  model: { id: string };
  instructions: string | null;
  memories: DreamMemory[];
  sessionIds: string[];
}

export interface DreamUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** Messages a dream reads from a past session: what the user and the agent said. */
const TRANSCRIPT_TYPES = ['user.message', 'agent.message'];
const TRANSCRIPT_EVENTS_MAX = 500;

/**
 * A dream's model call, outside any session: the memories and the named sessions' messages go to the model
 * the dream names, the reply comes back as the store it describes, with the tokens the call took.
 */
@Injectable()
export class DreamModelService {
  constructor(
    private readonly harnesses: HarnessFactory,
    private readonly budgets: BudgetAdmission,
    @Inject(DATABASE) private readonly db: ServiceDatabase<'dataplane'>,
  ) {}

  async dream(work: DreamWork): Promise<{ memories: DreamMemory[] | null; usage: DreamUsage }> {
    const model = this.harnesses.modelFor(work.model);
    const transcripts = await this.transcripts(work.tenantId, work.sessionIds);
    const usage: DreamUsage = {
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    };
    let streamed = '';
    let final: string | undefined;
    const request = {
      messages: dreamMessages(work.memories, transcripts, work.instructions),
      maxTokens: 8_000,
    };
    for await (const event of model.stream(request)) {
      if (event.type === 'text_delta') streamed += event.text;
      else if (event.type === 'done') {
        final = event.message.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
        usage.input_tokens = event.usage.inputTokens;
        usage.output_tokens = event.usage.outputTokens;
        usage.cache_read_input_tokens = event.usage.cacheReadInputTokens ?? 0;
        usage.cache_creation_input_tokens = event.usage.cacheCreationInputTokens ?? 0;
      }
    }
    await this.meter(work, usage);
    return { memories: parseDreamReply(final ?? streamed), usage };
  }

  /** The call is the tenant's spend like any session's: a settled ledger row, with no session or agent. */
  private async meter(work: DreamWork, usage: DreamUsage): Promise<void> {
    await this.db.usageLedger.create({
      data: {
        tenantId: work.tenantId,
        namespaceId: work.namespaceId,
        kind: 'settlement',
        model: work.model.id,
        inputTokens: usage.input_tokens,
        outputTokens: usage.output_tokens,
        cacheReadTokens: usage.cache_read_input_tokens,
        cacheWriteTokens: usage.cache_creation_input_tokens,
        listCostMicros: this.budgets.prices.costMicros(work.model.id, usage),
      },
    });
  }

  private async transcripts(
    tenantId: string,
    sessionIds: string[],
  ): Promise<Array<{ sessionId: string; text: string }>> {
    if (sessionIds.length === 0) return [];
    const events = await this.db.sessionEvent.findMany({
      where: { tenantId, sessionId: { in: sessionIds }, type: { in: TRANSCRIPT_TYPES } },
      orderBy: [{ sessionId: 'asc' }, { seq: 'desc' }],
      take: TRANSCRIPT_EVENTS_MAX * sessionIds.length,
      select: { sessionId: true, type: true, payload: true },
    });
    const lines = new Map<string, string[]>();
    for (const event of events.reverse()) {
      const text = textOf(event.payload);
      if (!text) continue;
      const who = event.type === 'user.message' ? 'User' : 'Agent';
      lines.set(event.sessionId, [...(lines.get(event.sessionId) ?? []), `${who}: ${text}`]);
    }
    return [...lines].map(([sessionId, said]) => ({ sessionId, text: said.join('\n') }));
  }
}

function textOf(payload: unknown): string {
  const content = (payload as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: { type?: unknown; text?: unknown }) =>
      block?.type === 'text' && typeof block.text === 'string' ? block.text : '',
    )
    .join('')
    .trim();
}
