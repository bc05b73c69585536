import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import {
  AppError,
  CreateMemoryRequestSchema,
  Jobs,
  UpkeepSubjects,
  type Actor,
  type DreamInput,
  type DreamOutputBehavior,
} from '@agentry/contracts';
import type { Dream as DreamRow } from '@agentry/db';
import { JobQueue, LOGGER, RpcClient, type Logger } from '@agentry/platform';
import { MemoriesRepository } from '../memory-stores/memories.repository.js';
import { MemoriesService } from '../memory-stores/memories.service.js';
import { MemoryStoresService } from '../memory-stores/memory-stores.service.js';
import { sha256Hex, toMemoryActor } from '../memory-stores/memory.mapper.js';
import { DreamsRepository } from './dreams.repository.js';

/** A model call over a whole store can take minutes. */
const DREAM_MODEL_TIMEOUT_MS = 10 * 60_000;
const STORE_NAME_MAX = 255;

type Snapshot = { path: string; content: string };

/** Why a dream stopped, as `error` shows it. */
class DreamFailure extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Runs a dream: reads the input store, asks the dataplane for one call of the dream's model, and writes the
 * store the reply describes as new memory versions (created, modified, deleted), so every earlier version
 * stays readable. `create_new` first copies the input store into a new store and writes there.
 */
@Injectable()
export class DreamRunner implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobQueue,
    private readonly rpc: RpcClient,
    private readonly dreams: DreamsRepository,
    private readonly stores: MemoryStoresService,
    private readonly memories: MemoriesService,
    private readonly memoryRows: MemoriesRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.process(Jobs.dream, ({ tenantId, dreamId }) => this.run(tenantId, dreamId), 2);
  }

  async run(tenantId: string, dreamId: string): Promise<void> {
    const pending = await this.dreams.findForJob(tenantId, dreamId);
    if (pending?.status !== 'pending') return;
    const dream = await this.dreams.transition(dreamId, ['pending'], 'running');
    if (!dream) return; // canceled before it started
    try {
      await this.dream(dream);
      await this.dreams.transition(dreamId, ['running'], 'completed');
    } catch (err) {
      const failure =
        err instanceof DreamFailure
          ? err
          : AppError.is(err)
            ? new DreamFailure(err.code.toLowerCase(), err.message)
            : new DreamFailure('internal_error', 'The dream stopped on an internal error');
      if (!(err instanceof DreamFailure || AppError.is(err)))
        this.logger.error({ err, dreamId }, 'dream failed on an internal error');
      await this.dreams.transition(dreamId, ['running'], 'failed', {
        error: { type: failure.type, message: failure.message },
      });
    }
  }

  private async dream(dream: DreamRow): Promise<void> {
    const actor = dream.createdBy as Actor;
    const inputs = dream.inputs as DreamInput[];
    const inputStoreId = inputs.find((i) => i.type === 'memory_store')!.memory_store_id;
    const sessionIds = inputs.find((i) => i.type === 'sessions')?.session_ids ?? [];
    const current = await this.snapshot(actor, inputStoreId);
    const targetId = await this.target(actor, dream, inputStoreId, current);

    const reply = await this.rpc.request(
      UpkeepSubjects.dreamMemories,
      {
        tenantId: dream.tenantId,
        namespaceId: dream.namespaceId,
        model: { id: (dream.model as { id: string }).id },
        instructions: dream.instructions,
        memories: current,
        sessionIds,
      },
      { timeoutMs: DREAM_MODEL_TIMEOUT_MS },
    );
    await this.dreams.update(dream.id, { usage: reply.usage });
    if (!reply.memories)
      throw new DreamFailure('invalid_model_output', "The model's reply held no memory block");
    for (const m of reply.memories) {
      const parsed = CreateMemoryRequestSchema.safeParse(m);
      if (!parsed.success)
        throw new DreamFailure('invalid_model_output', `The model wrote an invalid memory at ${m.path}`);
    }
    if ((await this.dreams.findForJob(dream.tenantId, dream.id))?.status !== 'running') return;
    await this.apply(actor, targetId, current, reply.memories);
  }

  /** The store the dream writes: the input itself, or a new copy of it. */
  private async target(
    actor: Actor,
    dream: DreamRow,
    inputStoreId: string,
    current: Snapshot[],
  ): Promise<string> {
    const behavior = dream.outputBehavior as DreamOutputBehavior;
    if (behavior.type === 'update_existing') return inputStoreId;
    const input = await this.stores.get(actor, inputStoreId);
    const copy = await this.stores.create(actor, {
      name: `${input.name} (dream)`.slice(0, STORE_NAME_MAX),
      description: `Written by dream ${dream.id} from memory store ${inputStoreId}`,
    });
    await this.dreams.update(dream.id, { outputStoreId: copy.id });
    for (const memory of current) await this.memories.create(actor, copy.id, memory);
    return copy.id;
  }

  /** Writes `desired` over `current` in the store: a version per memory that changes, none for the rest. */
  private async apply(
    actor: Actor,
    storeId: string,
    current: Snapshot[],
    desired: Snapshot[],
  ): Promise<void> {
    const by = toMemoryActor(actor);
    const before = new Map(current.map((m) => [m.path, sha256Hex(m.content)]));
    const kept = new Set(desired.map((m) => m.path));
    for (const m of desired)
      await this.memories.writeByPath(
        actor,
        storeId,
        { path: m.path, content: m.content, base_content_sha256: before.get(m.path) ?? null },
        by,
      );
    for (const m of current.filter((c) => !kept.has(c.path)))
      await this.memories.writeByPath(
        actor,
        storeId,
        { path: m.path, content: null, base_content_sha256: before.get(m.path)! },
        by,
      );
  }

  private async snapshot(actor: Actor, storeId: string): Promise<Snapshot[]> {
    const rows = await this.memoryRows.listLive(actor, storeId, '/');
    return rows.map(({ memory }) => ({ path: memory.path, content: memory.content }));
  }
}
