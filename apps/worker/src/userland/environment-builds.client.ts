import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentBuildSubjects, type RpcRequest } from '@agentry/contracts';
import { LOGGER, RpcClient, type Logger } from '@agentry/platform';

export type BuildReport = Omit<RpcRequest<typeof EnvironmentBuildSubjects.report>, 'v'>;

/** What the Hands ask control about an environment's image, and how they tell it how its build goes. */
@Injectable()
export class EnvironmentBuildsClient {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  handsConfig(tenantId: string, sessionId: string) {
    return this.rpc.request(EnvironmentBuildSubjects.handsConfig, { tenantId, sessionId });
  }

  /** Best effort: a status that cannot be recorded never fails the build it is about. */
  async report(report: BuildReport): Promise<void> {
    try {
      await this.rpc.request(EnvironmentBuildSubjects.report, report);
    } catch (error) {
      this.logger.warn(
        { environmentId: report.environmentId, status: report.status, err: (error as Error).message },
        'the environment build status could not be recorded',
      );
    }
  }
}
