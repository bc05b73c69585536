// A separate entry point: loading it must not pull in the modules it is meant to instrument.
export { startTelemetry } from './start-telemetry.js';
