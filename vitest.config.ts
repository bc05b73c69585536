import { defaultServerConditions, defineConfig } from 'vite';
import { configDefaults } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources in tests (the `source` export condition),
// so unit and integration tests never wait for a build.
// `module` is left out: some dependencies (e.g. @opentelemetry/api) point it at ESM builds with
// extensionless imports that Node itself cannot load once the dependency is externalised.
const conditions = ['source', ...defaultServerConditions.filter((c) => c !== 'module')];

const unitExclude = ['**/*.int.test.ts', '**/*.e2e.test.ts'];

export default defineConfig({
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
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['{apps,packages}/*/{src,test}/**/*.e2e.test.ts', 'test/e2e/**/*.e2e.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
