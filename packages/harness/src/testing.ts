export type {
  ConformanceObservedRequest,
  ConformanceReply,
  ModelConformanceFixture,
} from './model/testing/model-conformance.fixture.js';
export { runModelConformance } from './model/testing/model-conformance.suite.js';
