export { runWorkspaceConformance } from './workspace-conformance.js';
export { runSandboxConformance } from './sandbox-conformance.js';
export { expectAppError } from './expect-app-error.js';
export type {
  SandboxFactory,
  WorkspaceFactory,
  WorkspaceFactoryOptions,
  WorkspaceUnderTest,
} from './conformance-types.js';
export { FakeE2bSandbox } from './fake-e2b-sandbox.js';
