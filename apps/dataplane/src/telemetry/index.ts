export { instrumentHarness } from './instrumented-harness.js';
export { InstrumentedModel } from './instrumented-model.js';
export { InstrumentedToolExecutor } from './instrumented-tools.js';
