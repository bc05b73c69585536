import { Injectable } from '@nestjs/common';
import {
  AppError,
  applyMetadataPatch,
  LIMITS,
  WorkSubjects as S,
  type Page,
  type RpcParsedRequest,
  type Work,
  type WorkPrincipal,
  type WorkQueueStats,
} from '@agentry/contracts';
import { hashSessionsToken, SESSIONS_TOKEN_PREFIX } from './sessions-token.js';
import { WorkAccess } from './work-access.js';
import { toWork } from './work-item.mapper.js';
import { decodeIdCursor, encodeCursor } from '@agentry/contracts/v1';
import { resumableAfter } from '@agentry/platform';
import { WorkItemsRepository } from './work-items.repository.js';
import { WorkersRepository } from './workers.repository.js';

/** CMA counts a worker as polling if it polled within the last 30 seconds. */
const POLLING_WINDOW_MS = 30_000;

/** Reading and annotating work items, and resolving a sessions token to the one item it was minted for. */
@Injectable()
export class WorkItemsService {
  constructor(
    private readonly items: WorkItemsRepository,
    private readonly workers: WorkersRepository,
    private readonly access: WorkAccess,
  ) {}

  async get(req: RpcParsedRequest<typeof S.get>): Promise<Work> {
    const scope = await this.access.item(req.principal, req.workId);
    return toWork(await this.access.existing(scope, req.workId));
  }

  async update(req: RpcParsedRequest<typeof S.update>): Promise<Work> {
    const scope = await this.access.item(req.principal, req.workId);
    const row = await this.access.existing(scope, req.workId);
    const metadata = applyMetadataPatch(row.metadata as Record<string, string>, req.body.metadata);
    if (Object.keys(metadata).length > LIMITS.metadataKeys) {
      throw new AppError(
        'INVALID_REQUEST',
        `metadata: would hold more than ${LIMITS.metadataKeys} keys after the patch`,
      );
    }
    return toWork(await this.items.setMetadata(row.id, metadata));
  }

  async list(req: RpcParsedRequest<typeof S.list>): Promise<Page<Work>> {
    const scope = await this.access.environment(req.principal);
    const rows = await this.items.list(scope, {
      state: req.state,
      limit: req.limit + 1,
      beforeId: decodeIdCursor(req.page, 'work_'),
      onlyId: req.principal.workId ?? undefined,
    });
    const page = rows.slice(0, req.limit);
    const last = page.at(-1);
    return resumableAfter(
      {
        data: page.map((row) => toWork(row)),
        next_page: rows.length > req.limit && last ? encodeCursor(last.id) : null,
      },
      (work) => encodeCursor(work.id),
    );
  }

  async stats(req: RpcParsedRequest<typeof S.stats>): Promise<WorkQueueStats> {
    this.access.environmentKeyOnly(req.principal, 'read the queue statistics');
    const scope = await this.access.environment(req.principal);
    const [counts, polling] = await Promise.all([
      this.items.stats(scope),
      this.workers.countPolling(scope.environmentId, POLLING_WINDOW_MS),
    ]);
    return {
      type: 'work_queue_stats',
      depth: counts.queued,
      pending: counts.starting,
      oldest_queued_at: counts.oldest?.toISOString() ?? null,
      workers_polling: polling,
    };
  }

  /** The principal of a sessions token: its item and session only. Unknown, or the item stopped → UNAUTHENTICATED. */
  async verifySessionsToken(token: string): Promise<WorkPrincipal> {
    const item = token.startsWith(SESSIONS_TOKEN_PREFIX)
      ? await this.items.findOpenBySecretHash(hashSessionsToken(token))
      : null;
    if (!item)
      throw new AppError('UNAUTHENTICATED', 'The sessions token is not valid, or its work item has stopped');
    return {
      tenantId: item.tenantId,
      namespaceId: item.namespaceId,
      environmentId: item.environmentId,
      workId: item.id,
      sessionId: item.sessionId,
    };
  }
}
