import { Controller } from '@nestjs/common';
import { ControlUpkeepSubjects as S, type RpcParsedRequest } from '@agentry/contracts';
import { RpcHandler } from '@agentry/platform';
import { ExpiredRowsRepository } from './expired-rows.repository.js';

/** Retention sweeps the scheduler times over tables control owns. */
@Controller()
export class RetentionHandler {
  constructor(private readonly rows: ExpiredRowsRepository) {}

  @RpcHandler(S.purgeExpired)
  async purgeExpired(req: RpcParsedRequest<typeof S.purgeExpired>) {
    return { deleted: await this.rows.purge(req.table, new Date(req.cutoff), req.limit) };
  }
}
