import { defaultServerConditions, defineConfig, type Plugin } from 'vite';
import { configDefaults } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources in tests (the `source` export condition),
// so unit and integration tests never wait for a build.
// `module` is left out: some dependencies (e.g. @opentelemetry/api) point it at ESM builds with
// extensionless imports that Node itself cannot load once the dependency is externalised.
const conditions = ['source', ...defaultServerConditions.filter((c) => c !== 'module')];

const unitExclude = ['**/*.int.test.ts', '**/*.e2e.test.ts', '**/*.stress.test.ts'];

// The MCP SDK's sourcemaps name TypeScript sources the package does not ship; once it is inlined (below),
// vite warns about every one of its files. Only that warning, for that package, is dropped. Vitest
// replaces `customLogger` with its own, so the filter wraps the resolved logger instead.
const MCP_SDK_MISSING_SOURCES =
  /^Sourcemap for "[^"]*\/@modelcontextprotocol\/sdk\/[^"]*" points to missing source files$/;
function quietMcpSdkSourcemaps(): Plugin {
  return {
    name: 'agentry:quiet-mcp-sdk-sourcemaps',
    configResolved(config) {
      const warnOnce = config.logger.warnOnce.bind(config.logger);
      config.logger.warnOnce = (message, options) => {
        if (!MCP_SDK_MISSING_SOURCES.test(message)) warnOnce(message, options);
      };
    },
  };
}

const E2E_FILES = ['{apps,packages}/*/{src,test}/**/*.e2e.test.ts', 'test/e2e/**/*.e2e.test.ts'];
const E2E_ALONE = [
  'apps/gateway/test/chaos/**/*.e2e.test.ts',
  'apps/gateway/test/*-outage.e2e.test.ts',
  'apps/gateway/test/lease-failover.e2e.test.ts',
  'apps/gateway/test/crash-recovery.e2e.test.ts',
  'apps/gateway/test/turn-interrupt*.e2e.test.ts',
  'apps/gateway/test/hands-durable-workspace.e2e.test.ts',
  'apps/gateway/test/*-crash.e2e.test.ts',
  'apps/gateway/test/sse-delivery.e2e.test.ts',
  'apps/gateway/test/rate-limits.e2e.test.ts',
  'apps/gateway/test/login-lockout.e2e.test.ts',
  'apps/gateway/test/session-replays.e2e.test.ts',
  'apps/gateway/test/openapi-fuzz.e2e.test.ts',
  'apps/worker/test/worker-container.e2e.test.ts',
  'apps/console/test/console.e2e.test.ts',
  'packages/cli/test/cli.e2e.test.ts',
];
// Fails the run if a secret a test registered shows up in a service log, a response or an event.
const E2E_GLOBAL_SETUP = [
  'packages/testing/src/secrets/e2e-secret-scan.ts',
  'apps/worker/test/userland.global-setup.ts',
];

export default defineConfig({
  plugins: [quietMcpSdkSourcemaps()],
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['source'] } },
  test: {
    // These publish a `source` export pointing at TypeScript; inlined, vite transpiles them instead of Node.
    server: { deps: { inline: [/@modelcontextprotocol\/sdk/, 'eventsource', 'eventsource-parser'] } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['{apps,packages}/*/src/**/*.test.ts', '{apps,packages}/*/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...unitExclude],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['{apps,packages}/*/{src,test}/**/*.int.test.ts'],
          // The sandboxes' userland, built once before any test needs it.
          globalSetup: ['apps/worker/test/userland.global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Load and timing bounds on real services: one file at a time, after the integration tier, so
        // no other test competes for the machine while latencies are asserted.
        extends: true,
        test: {
          name: 'stress',
          include: ['{apps,packages}/*/{src,test}/**/*.stress.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        // Functional end-to-end files, two at a time: each runs its own platform on its own database,
        // Redis keys and NATS subjects, so they share nothing but the machine.
        extends: true,
        test: {
          name: 'e2e',
          include: E2E_FILES,
          exclude: [...configDefaults.exclude, ...E2E_ALONE],
          globalSetup: E2E_GLOBAL_SETUP,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // Files whose subject is timing or faults (kills, pauses, partitions, soak, interrupts, restarts of
        // a service or a backing store) and the heaviest clients (Chromium, podman): one at a time, after the
        // others, with the machine to themselves.
        extends: true,
        test: {
          name: 'e2e-alone',
          include: E2E_ALONE,
          globalSetup: E2E_GLOBAL_SETUP,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
