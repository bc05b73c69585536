import { register } from 'node:module';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { getNodeAutoInstrumentations } from '@opentelemetry/auto-instrumentations-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { startMetrics } from '../metrics/start-metrics.js';

let sdk: NodeSDK | undefined;

/**
 * Starts OpenTelemetry when an OTLP endpoint is configured (the standard `OTEL_*` variables), and
 * does nothing otherwise, so a laptop run pays nothing. It must run before the service's modules load
 * (each service starts with `node --import ./dist/instrument.js`), because ESM modules are patched at
 * load time. Metrics always start (a Prometheus scrape endpoint, plus OTLP push when an endpoint is set);
 * log export stays off unless asked for.
 */
export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): boolean {
  startMetrics(serviceName, env);
  if (sdk || !env.OTEL_EXPORTER_OTLP_ENDPOINT) return false;
  env.OTEL_LOGS_EXPORTER ??= 'none';
  // Metrics have their own provider (startMetrics): the SDK must not install a second one.
  const metricsExporter = env.OTEL_METRICS_EXPORTER;
  env.OTEL_METRICS_EXPORTER = 'none';
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      getNodeAutoInstrumentations({ '@opentelemetry/instrumentation-fs': { enabled: false } }),
    ],
  });
  sdk.start();
  if (metricsExporter === undefined) delete env.OTEL_METRICS_EXPORTER;
  else env.OTEL_METRICS_EXPORTER = metricsExporter;
  const stop = () => void sdk?.shutdown();
  process.once('SIGTERM', stop);
  process.once('beforeExit', stop);
  return true;
}

export async function stopTelemetry(): Promise<void> {
  await sdk?.shutdown();
  sdk = undefined;
}
