import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

const apps = ['gateway', 'control', 'scheduler', 'dataplane', 'worker'];
// The contracts' narrower entry points (package.json `exports`).
const contractsEntries = ['v1', 'api', 'nats', 'events'].map((entry) => `!@agentry/contracts/${entry}`);

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/generated/**',
      '.turbo/**',
      'coverage/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    // Type-aware rules: each file is checked with the types of the tsconfig that owns it.
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.js'] } } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
      '@typescript-eslint/no-floating-promises': 'error',
      // A switch with a `default` is exhaustive by choice; one without must name every member of its union.
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'import-x/no-self-import': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@agentry/*/*',
                '!@agentry/*/testing',
                '!@agentry/platform/telemetry',
                ...contractsEntries,
              ],
              message: 'Import a package only through its entry point (or its /testing entry in tests).',
            },
            { group: apps.map((a) => `@agentry/${a}`), message: 'Apps never import apps; talk over NATS.' },
            { group: ['**/apps/**', '../../apps/**'], message: 'Never reach into an app from outside it.' },
          ],
        },
      ],
    },
  },
  {
    // Framework-free libraries: no Nest, Prisma, Redis or NATS.
    files: [
      'packages/harness/src/**/*.ts',
      'packages/workspace/src/**/*.ts',
      'packages/contracts/src/**/*.ts',
    ],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@agentry/*/*',
                '!@agentry/*/testing',
                '!@agentry/platform/telemetry',
                ...contractsEntries,
              ],
              message: 'Import a package only through its entry point (or its /testing entry in tests).',
            },
            {
              group: [
                '@nestjs/*',
                '@prisma/*',
                'ioredis',
                'bullmq',
                '@nats-io/*',
                '@agentry/db',
                '@agentry/platform',
              ],
              message: 'This package is framework-free.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/contracts/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!zod$|\\.)', message: 'contracts depends on zod only.' }] },
      ],
    },
  },
  {
    // A test file keeps one feature's cases together, read top to bottom: a looser bound.
    files: ['**/*.test.ts'],
    rules: { 'max-lines': ['error', { max: 600, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Time is a port: services read the injected CLOCK (SystemClock is the one place that reads the
    // wall clock), so tests can set the time instead of waiting for it.
    files: ['apps/*/src/**/*.ts', 'packages/platform/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'packages/platform/src/clock/clock.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'Date',
          property: 'now',
          message: 'Read the time from the injected CLOCK (Clock.nowMs()).',
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Read the time from the injected CLOCK (Clock.now()).',
        },
      ],
    },
  },
  {
    // Cycle detection is expensive; run it where cycles actually hurt.
    files: ['packages/*/src/**/*.ts', 'apps/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'import-x/no-cycle': ['error', { maxDepth: 8 }] },
  },
);
