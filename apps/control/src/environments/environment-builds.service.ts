import { Injectable } from '@nestjs/common';
import {
  AppError,
  BUILD_LOG_MAX_BYTES,
  type Actor,
  type EnvironmentBuildLog,
  type EnvironmentConfig,
  type RpcParsedRequest,
  type EnvironmentBuildSubjects,
} from '@agentry/contracts';
import { packagesDigestOf, toBuild } from './environment-build.mapper.js';
import { EnvironmentBuildsRepository } from './environment-builds.repository.js';
import { EnvironmentsService } from './environments.service.js';

type Report = RpcParsedRequest<typeof EnvironmentBuildSubjects.report>;

/**
 * The state of `cloud` environments' sandbox images: what the Hands must build for an environment, the
 * reports of their builds, and what the environment and its build log route show of them.
 */
@Injectable()
export class EnvironmentBuildsService {
  constructor(
    private readonly builds: EnvironmentBuildsRepository,
    private readonly environments: EnvironmentsService,
  ) {}

  /** What a worker opening a session's sandbox needs of its environment (nothing secret). */
  async handsConfig(tenantId: string, sessionId: string) {
    const row = await this.builds.environmentOfSession(tenantId, sessionId);
    if (!row) throw new AppError('NOT_FOUND', `Session ${sessionId} or its environment not found`);
    const config = row.config as EnvironmentConfig;
    if (config.type !== 'cloud')
      return { environmentId: row.id, packages: null, allowPackageManagers: false };
    return {
      environmentId: row.id,
      packages: config.packages,
      allowPackageManagers: config.networking.type === 'limited' && config.networking.allow_package_managers,
    };
  }

  async report(report: Report): Promise<{ recorded: boolean }> {
    const digest = packagesDigestOf(report.packages);
    if (digest === null) return { recorded: false };
    if (!(await this.builds.environment(report.tenantId, report.environmentId))) return { recorded: false };
    const recorded = await this.builds.record({
      tenantId: report.tenantId,
      environmentId: report.environmentId,
      packagesDigest: digest,
      status: report.status,
      startedAt: new Date(report.startedAt),
      finishedAt: report.finishedAt ? new Date(report.finishedAt) : null,
      error: report.error,
      log: tail(report.log),
    });
    return { recorded };
  }

  async log(actor: Actor, id: string): Promise<EnvironmentBuildLog> {
    const environment = await this.environments.get(actor, id);
    if (environment.config.type !== 'cloud')
      throw new AppError('NOT_FOUND', `Environment ${id} is not a cloud environment and has no image build`);
    const digest = packagesDigestOf(environment.config.packages);
    const row = digest === null ? null : await this.builds.find(actor.tenantId, id);
    const current = row?.packagesDigest === digest ? row : null;
    return {
      type: 'environment_build_log',
      environment_id: id,
      status: toBuild(digest, current).status,
      packages_digest: digest,
      log: current?.log ?? '',
    };
  }
}

function tail(log: string): string {
  const bytes = Buffer.from(log);
  return bytes.length <= BUILD_LOG_MAX_BYTES ? log : bytes.subarray(-BUILD_LOG_MAX_BYTES).toString();
}
