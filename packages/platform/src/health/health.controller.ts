import { Controller, Get, Inject, Res } from '@nestjs/common';
import { checkReadiness, type HealthIndicator } from './health-check.js';
import { Public } from '../http/public.decorator.js';

export const HEALTH_INDICATORS = Symbol('HEALTH_INDICATORS');

/** Liveness says the process runs; readiness says its real dependencies answer. */
@Public()
@Controller()
export class HealthController {
  constructor(@Inject(HEALTH_INDICATORS) private readonly indicators: HealthIndicator[]) {}

  @Get('healthz')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: { status(code: number): unknown }): Promise<unknown> {
    const report = await checkReadiness(this.indicators);
    if (report.status !== 'ok') reply.status(503);
    return report;
  }
}
