import { Injectable } from '@nestjs/common';
import {
  AppError,
  ControlSubjects,
  DEFAULT_OUTCOME_MAX_ITERATIONS,
  ID_PREFIXES,
  newId,
  type Actor,
  type InboundEvent,
  type StoredEvent,
} from '@agentry/contracts';
import { RpcClient } from '@agentry/platform';
import { OutcomeEvaluationsRepository } from './outcome-evaluations.repository.js';
import type { OutcomeRecord } from './outcome-record.js';

/** As CMA caps a text rubric; a file rubric's text is held to the same size. */
const MAX_RUBRIC_CHARS = 262_144;

type DefineOutcome = Extract<InboundEvent, { type: 'user.define_outcome' }>;

/**
 * Accepting `user.define_outcome`: each gets its `outc_` id and its iteration budget (3 unless given),
 * and a file rubric is read once, here, so the echo and every later evaluation carry its text
 * (an unknown file is the sender's mistake: a 400 that names it). Once appended, the outcome is listed
 * on the session as `pending`.
 */
@Injectable()
export class OutcomeDefinitions {
  constructor(
    private readonly rpc: RpcClient,
    private readonly evaluations: OutcomeEvaluationsRepository,
  ) {}

  async prepare(
    actor: Actor,
    events: InboundEvent[],
  ): Promise<Array<InboundEvent | (DefineOutcome & { outcome_id: string })>> {
    return Promise.all(
      events.map((event) =>
        event.type === 'user.define_outcome' ? this.define(actor, event) : Promise.resolve(event),
      ),
    );
  }

  async listPending(sessionId: string, stored: StoredEvent[]): Promise<void> {
    await this.evaluations.addPending(
      sessionId,
      stored.flatMap(({ event }) => (event.type === 'user.define_outcome' ? [pendingRecord(event)] : [])),
    );
  }

  private async define(
    actor: Actor,
    event: DefineOutcome,
  ): Promise<DefineOutcome & { outcome_id: string; max_iterations: number }> {
    const rubric =
      event.rubric.type === 'text'
        ? event.rubric
        : { type: 'text' as const, content: await this.rubricFile(actor, event.rubric.file_id) };
    return {
      ...event,
      rubric,
      max_iterations: event.max_iterations ?? DEFAULT_OUTCOME_MAX_ITERATIONS,
      outcome_id: newId(ID_PREFIXES.outcome),
    };
  }

  private async rubricFile(actor: Actor, fileId: string): Promise<string> {
    let content: string;
    try {
      const file = await this.rpc.request(ControlSubjects.downloadFile, { actor, id: fileId });
      content = Buffer.from(file.content_base64, 'base64').toString('utf8');
    } catch (error) {
      if (AppError.is(error, 'NOT_FOUND'))
        throw new AppError('INVALID_REQUEST', `rubric.file_id: file ${fileId} not found`);
      throw error;
    }
    if (content.trim() === '')
      throw new AppError('INVALID_REQUEST', `rubric.file_id: file ${fileId} is empty`);
    if (content.length > MAX_RUBRIC_CHARS)
      throw new AppError(
        'INVALID_REQUEST',
        `rubric.file_id: file ${fileId} holds more than ${MAX_RUBRIC_CHARS} characters`,
      );
    return content;
  }
}

/** The session's entry for an outcome as its echo event carries it. */
export function pendingRecord(event: StoredEvent['event']): OutcomeRecord {
  const e = event as unknown as {
    outcome_id: string;
    description: string;
    rubric: { content?: string };
    max_iterations: number | null;
  };
  return {
    outcome_id: e.outcome_id,
    description: e.description,
    rubric: e.rubric.content ?? '',
    max_iterations: e.max_iterations ?? DEFAULT_OUTCOME_MAX_ITERATIONS,
    iteration: 0,
    result: 'pending',
    explanation: null,
    completed_at: null,
  };
}
