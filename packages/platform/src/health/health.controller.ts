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
  live(@Res({ passthrough: true }) reply: ProbeReply): { status: 'ok' } {
    answeredBy(reply);
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: ProbeReply): Promise<unknown> {
    answeredBy(reply);
    const report = await checkReadiness(this.indicators);
    if (report.status !== 'ok') reply.status(503);
    return report;
  }
}

interface ProbeReply {
  status(code: number): unknown;
  header(name: string, value: string): unknown;
}

/** Which process answered: whoever starts a service can tell its answer from another process's on that port. */
const PROBE_PID_HEADER = 'agentry-pid';

function answeredBy(reply: ProbeReply): void {
  reply.header(PROBE_PID_HEADER, String(process.pid));
}
