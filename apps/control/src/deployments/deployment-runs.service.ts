import { Injectable } from '@nestjs/common';
import {
  AppError,
  type Actor,
  type DeploymentRun,
  type ListDeploymentRunsParams,
  type Page,
} from '@agentry/contracts';
import { decodeIdCursor, encodeCursor } from '@agentry/contracts/v1';
import { resumableById } from '../common/page-cursor.js';
import { toDeploymentRunDto } from './deployment.mapper.js';
import { DeploymentRunsRepository, type RunWithDeployment } from './deployment-runs.repository.js';
import { DeploymentsRepository } from './deployments.repository.js';

/** Run records, read-only here: the scheduler writes them when a deployment fires. */
@Injectable()
export class DeploymentRunsService {
  constructor(
    private readonly runs: DeploymentRunsRepository,
    private readonly deployments: DeploymentsRepository,
  ) {}

  async get(actor: Actor, id: string): Promise<DeploymentRun> {
    const row = await this.runs.find(actor, id);
    if (!row) throw new AppError('NOT_FOUND', `Deployment run ${id} not found`);
    return (await this.toDtos(actor, [row]))[0]!;
  }

  async list(actor: Actor, query: ListDeploymentRunsParams): Promise<Page<DeploymentRun>> {
    const rows = await this.runs.list(actor, {
      limit: query.limit + 1,
      afterId: decodeIdCursor(query.page),
      order: query.order ?? 'desc',
      deploymentId: query.deployment_id,
      hasError: query.has_error,
      trigger:
        query.trigger_type === undefined ? undefined : query.trigger_type === 'schedule' ? 'cron' : 'manual',
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return resumableById({
      data: await this.toDtos(actor, page),
      next_page: rows.length > query.limit && last ? encodeCursor(last.id) : null,
    });
  }

  private async toDtos(actor: Actor, rows: RunWithDeployment[]): Promise<DeploymentRun[]> {
    const heads = await this.deployments.agentHeads(actor, [
      ...new Set(rows.map((r) => r.deployment.agentId)),
    ]);
    return rows.map((row) => {
      const { agentId, agentVersion } = row.deployment;
      return toDeploymentRunDto(row, agentVersion ?? heads.get(agentId) ?? 1, agentId);
    });
  }
}
