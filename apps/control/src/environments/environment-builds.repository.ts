import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '@agentry/platform';
import { Prisma, type Environment, type EnvironmentBuild, type ServiceDatabase } from '@agentry/db';

export interface BuildReport {
  tenantId: string;
  environmentId: string;
  packagesDigest: string;
  status: string;
  startedAt: Date;
  finishedAt: Date | null;
  error: object | null;
  log: string;
}

/** The last reported state of each environment's sandbox image. */
@Injectable()
export class EnvironmentBuildsRepository {
  constructor(@Inject(DATABASE) private readonly db: ServiceDatabase<'control'>) {}

  find(tenantId: string, environmentId: string): Promise<EnvironmentBuild | null> {
    return this.db.environmentBuild.findFirst({ where: { environmentId, tenantId } });
  }

  /** The environment of a session (its thread rows name their session's environment too). */
  async environmentOfSession(tenantId: string, sessionId: string): Promise<Environment | null> {
    const session = await this.db.session.findFirst({
      where: { id: sessionId, tenantId },
      select: { environmentId: true },
    });
    return session ? this.environment(tenantId, session.environmentId) : null;
  }

  /** The environment a worker reports about, whatever its namespace (workers act for the whole tenant). */
  environment(tenantId: string, environmentId: string): Promise<Environment | null> {
    return this.db.environment.findFirst({ where: { id: environmentId, tenantId } });
  }

  /**
   * Records a report unless a newer build of the same set was reported already (two workers building the
   * same environment: the later start wins; a build's own reports replace each other).
   */
  async record(report: BuildReport): Promise<boolean> {
    const { tenantId, environmentId, error, ...fields } = report;
    const data = { ...fields, error: error ?? Prisma.DbNull };
    const current = await this.find(tenantId, environmentId);
    if (current && current.startedAt > report.startedAt && current.packagesDigest === report.packagesDigest)
      return false;
    await this.db.environmentBuild.upsert({
      where: { environmentId },
      create: { environmentId, tenantId, ...data },
      update: data,
    });
    return true;
  }
}
