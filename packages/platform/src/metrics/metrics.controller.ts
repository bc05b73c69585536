import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../http/public.decorator.js';
import { metricsOnOwnPort, prometheusReader } from './start-metrics.js';

/** The Prometheus text exposition of this process's metrics. */
@Public()
@Controller()
export class MetricsController {
  @Get('metrics')
  scrape(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const reader = prometheusReader();
    if (!reader || metricsOnOwnPort()) {
      void reply
        .code(404)
        .type('text/plain')
        .send(reader ? 'metrics are served on AGENTRY_METRICS_PORT\n' : 'metrics are off\n');
      return;
    }
    void reply.hijack();
    reader.getMetricsRequestHandler(request.raw, reply.raw);
  }
}
