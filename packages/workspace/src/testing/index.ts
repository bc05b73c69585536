export { FakeE2bSandbox } from './fake-e2b-sandbox.js';
