import { metrics } from '@opentelemetry/api';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type MetricReader } from '@opentelemetry/sdk-metrics';

let provider: MeterProvider | undefined;
let scrape: PrometheusExporter | undefined;
let ownPort = false;

/**
 * Starts the service's meter provider: always a Prometheus reader (scraped at `/metrics` on the service's
 * HTTP port, or on `AGENTRY_METRICS_PORT` when set, so the public gateway port need not expose it), plus an
 * OTLP push reader when an OTLP endpoint is configured and `OTEL_METRICS_EXPORTER` (default `otlp`) asks
 * for it. Instruments created through the global API before this runs are no-ops, so it runs first, from
 * the service's `instrument.ts`.
 */
export function startMetrics(serviceName: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (provider || env.AGENTRY_METRICS === 'off') return false;
  const port = env.AGENTRY_METRICS_PORT ? Number(env.AGENTRY_METRICS_PORT) : undefined;
  ownPort = port !== undefined;
  scrape = new PrometheusExporter({
    preventServerStart: port === undefined,
    ...(port !== undefined ? { port, host: env.AGENTRY_METRICS_HOST ?? '0.0.0.0' } : {}),
    withoutScopeInfo: true,
    // Every series names its service, whatever the scrape job is called in a given installation.
    withResourceConstantLabels: /^service\.name$/,
  });
  const readers: MetricReader[] = [scrape];
  const exporters = (env.OTEL_METRICS_EXPORTER ?? 'otlp').split(',').map((e) => e.trim());
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT && exporters.includes('otlp')) {
    const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL ?? 60_000);
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter(),
        exportIntervalMillis: interval,
      }),
    );
  }
  provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? serviceName }),
    readers,
  });
  metrics.setGlobalMeterProvider(provider);
  return true;
}

/** The Prometheus reader, when metrics run in this process (`/metrics` answers 404 otherwise). */
export function prometheusReader(): PrometheusExporter | undefined {
  return scrape;
}

/** True when metrics are served on their own port, and so not on the service's (maybe public) port. */
export function metricsOnOwnPort(): boolean {
  return ownPort;
}

export async function stopMetrics(): Promise<void> {
  await provider?.shutdown();
  provider = undefined;
  scrape = undefined;
  ownPort = false;
  metrics.disable();
}
