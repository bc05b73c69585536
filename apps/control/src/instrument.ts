// Loaded with `node --import` before main.js, so tracing can patch modules as they load.
import { startTelemetry } from '@agentry/platform/telemetry';

await startTelemetry('agentry-control');
