export { instrumentHarness } from './instrumented-harness.js';
export { InstrumentedModel, modelProvider } from './instrumented-model.js';
export { InstrumentedToolExecutor } from './instrumented-tools.js';
export { TelemetryModule } from './telemetry.module.js';
