import { startMetrics } from '../metrics/start-metrics.js';

/** The OpenTelemetry SDK, once tracing runs in this process. */
interface TracingSdk {
  shutdown(): Promise<void>;
}

let sdk: TracingSdk | undefined;

/**
 * The auto-instrumentations for the libraries the services use (HTTP in and out, Nest, Redis, Postgres,
 * OpenAI, pino's log correlation, runtime metrics). Every other one only costs start-up: each patches
 * the modules it names as they load. `OTEL_NODE_ENABLED_INSTRUMENTATIONS` still overrides the list.
 */
const DEFAULT_INSTRUMENTATIONS = [
  'http',
  'undici',
  'nestjs-core',
  'ioredis',
  'pg',
  'openai',
  'pino',
  'runtime-node',
] as const;

/**
 * Starts OpenTelemetry when an OTLP endpoint is configured (the standard `OTEL_*` variables), and
 * does nothing otherwise, so a laptop run pays nothing: not even loading the SDK. It must run, and be
 * awaited, before the service's modules load (each service starts with `node --import ./dist/instrument.js`),
 * because ESM modules are patched at load time; only the modules an instrumentation names are wrapped.
 * Metrics always start (a Prometheus scrape endpoint, plus OTLP push when an endpoint is set);
 * log export stays off unless asked for.
 */
export async function startTelemetry(
  serviceName: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<boolean> {
  startMetrics(serviceName, env);
  if (sdk || !env.OTEL_EXPORTER_OTLP_ENDPOINT) return false;
  env.OTEL_LOGS_EXPORTER ??= 'none';
  env.OTEL_NODE_ENABLED_INSTRUMENTATIONS ??= DEFAULT_INSTRUMENTATIONS.join(',');
  const [{ register }, iitm, { NodeSDK }, { getNodeAutoInstrumentations }, { OTLPTraceExporter }] =
    await Promise.all([
      import('node:module'),
      import('import-in-the-middle'),
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/auto-instrumentations-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
    ]);
  // The ESM loader hook wraps only the modules the instrumentations below ask for, as they ask.
  const { registerOptions, waitForAllMessagesAcknowledged } = iitm.createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  // Metrics have their own provider (startMetrics): the SDK must not install a second one.
  const metricsExporter = env.OTEL_METRICS_EXPORTER;
  env.OTEL_METRICS_EXPORTER = 'none';
  const started = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      getNodeAutoInstrumentations({ '@opentelemetry/instrumentation-fs': { enabled: false } }),
    ],
  });
  started.start();
  sdk = started;
  if (metricsExporter === undefined) delete env.OTEL_METRICS_EXPORTER;
  else env.OTEL_METRICS_EXPORTER = metricsExporter;
  await waitForAllMessagesAcknowledged();
  const stop = () => void sdk?.shutdown();
  process.once('SIGTERM', stop);
  process.once('beforeExit', stop);
  return true;
}
