import { describe } from 'vitest';
import { runSandboxConformance } from '../testing/sandbox-conformance.js';
import { E2bSandbox } from './e2b-sandbox.js';

// Runs only where an E2B (cloud or self-hosted) is reachable: E2B_API_KEY, and E2B_API_URL/E2B_DOMAIN if self-hosted.
const apiKey = process.env.E2B_API_KEY;

describe.runIf(Boolean(apiKey))('e2b live', () => {
  runSandboxConformance('e2b live', async () => ({
    fs: await E2bSandbox.create({
      apiKey,
      apiUrl: process.env.E2B_API_URL,
      domain: process.env.E2B_DOMAIN,
      template: process.env.E2B_TEMPLATE,
      sandboxTimeoutMs: 300_000,
    }),
  }));
});
