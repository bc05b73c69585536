// A separate entry point: loading it must not pull in the modules it is meant to instrument.
export { startTelemetry, stopTelemetry } from './start-telemetry.js';
export { startMetrics, stopMetrics } from '../metrics/start-metrics.js';
