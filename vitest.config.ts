import { defaultServerConditions, defineConfig } from 'vite';
import { configDefaults } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources in tests (the `source` export condition),
// so unit and integration tests never wait for a build.
const conditions = ['source', ...defaultServerConditions];

const unitExclude = ['**/*.int.test.ts', '**/*.e2e.test.ts'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['source'] } },
  test: {
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]] : ['default'],
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
