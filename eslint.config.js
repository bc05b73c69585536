import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

const apps = ['gateway', 'control', 'scheduler', 'dataplane', 'worker'];

/**
 * The dataplane's folders, lowest first: a folder imports only folders of an earlier layer, never one of
 * its own layer or a later one, so no folder imports a folder that imports it. The turn pipeline and the
 * services answering requests are at the top; the drain, wake-up and lease machinery below them.
 */
const DATAPLANE_LAYERS = [
  ['config'],
  ['sql'],
  ['telemetry', 'hands', 'mounts', 'agent-workspace', 'session-rows', 'upkeep'],
  ['event-log'],
  ['sessions'],
  ['budgets', 'outcomes', 'mcp', 'work'],
  ['drain', 'agent-harness', 'conversation'],
  ['threads'],
  ['turns', 'events'],
  ['memory-upkeep'],
];

/** One `no-restricted-paths` zone per folder: everything at its own layer or above is out of bounds. */
function dataplaneBackEdges() {
  const dir = (folder) => `./apps/dataplane/src/${folder}`;
  return DATAPLANE_LAYERS.flatMap((layer, index) =>
    layer.map((folder) => ({
      target: dir(folder),
      from: DATAPLANE_LAYERS.slice(index)
        .flat()
        .filter((other) => other !== folder)
        .map(dir),
      message: `a folder back-edge in the dataplane: ${folder} is below these (DATAPLANE_LAYERS in eslint.config.js).`,
    })),
  ).filter((zone) => zone.from.length > 0); // the top layer has nothing above it
}
/**
 * Reaching into a framework class's private state: one framework upgrade can then break every service at
 * once. eslint sees three shapes of it: subclassing a built-in Nest transport (extend the documented
 * `Server`/`ClientProxy` bases instead), `this` cast through `unknown` to read fields the type hides, and
 * the known private fields of Nest's transports and router by name.
 */
const NEST_PRIVATE_NAMES = [
  'natsClient',
  'subscriptions',
  'statusEventEmitter',
  'connectionPromise',
  'pendingEventListeners',
  'routerProxy',
  'routerExplorer',
  'routePathFactory',
  'metadataScanner',
  'exceptionFiltersCache',
];
const frameworkPrivateAccess = [
  {
    selector:
      ':matches(ClassDeclaration, ClassExpression)[superClass.name=/^(Server|Client)(Nats|TCP|Tcp|Redis|Mqtt|Kafka|Grpc|RMQ)$/]',
    message: "Nest's built-in transports are not extension points: extend `Server` (a custom transport).",
  },
  {
    selector: "TSAsExpression[expression.type='TSAsExpression'][expression.expression.type='ThisExpression']",
    message: 'Casting `this` through `unknown` reaches private fields of a base class: use its public API.',
  },
  {
    selector: `MemberExpression[property.name=/^(${NEST_PRIVATE_NAMES.join('|')})$/]`,
    message: 'A private field of a Nest class: use its public API.',
  },
];

// The contracts' narrower entry points (package.json `exports`).
const contractsEntries = ['v1', 'api', 'nats', 'events'].map((entry) => `!@agentry/contracts/${entry}`);

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/generated/**',
      '.turbo/**',
      // Built trees of earlier releases (the rolling upgrade test's), not this source.
      '.cache/**',
      'coverage/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: ['**/*.ts', '**/*.tsx'] })),
  {
    files: ['**/*.ts', '**/*.tsx'],
    // Type-aware rules: each file is checked with the types of the tsconfig that owns it. The root's
    // vitest.config.ts has none; it gets the shared compiler options, whose NodeNext resolution finds vite's
    // types (the project service's own defaults do not).
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'], defaultProject: 'tsconfig.base.json' },
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
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
      '@typescript-eslint/no-floating-promises': 'error',
      'no-restricted-syntax': ['error', ...frameworkPrivateAccess],
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
            {
              group: [
                '@nestjs/*/constants',
                '@nestjs/*/constants.js',
                '@nestjs/*/internal',
                '@nestjs/*/internal.js',
              ],
              message:
                "Nest's metadata constants and internals are private: use public APIs (the route table documents routes).",
            },
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
        // zod, and `ulid` (dependency-free) for the id format.
        {
          patterns: [
            { regex: '^(?!zod$|ulid$|\\.)', message: 'contracts depends on zod (and ulid for ids) only.' },
          ],
        },
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
        ...frameworkPrivateAccess,
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Read the time from the injected CLOCK (Clock.now()).',
        },
      ],
    },
  },
  {
    // The dataplane's folders form layers; an import up or across them fails the build.
    // Imports are written with `.js`; the resolver maps them to the TypeScript sources, which the zones name.
    files: ['apps/dataplane/src/**/*.ts'],
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: dataplaneBackEdges() }] },
  },
  {
    // The turn pipeline and its drain stay readable in one sitting: small stages, few collaborators each.
    files: ['apps/dataplane/src/turns/turn-*.ts', 'apps/dataplane/src/drain/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 50, skipBlankLines: true, skipComments: true }],
      'max-params': ['error', 6],
    },
  },
  {
    // Cycle detection is expensive; run it where cycles actually hurt.
    files: ['packages/*/src/**/*.ts', 'apps/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'import-x/no-cycle': ['error', { maxDepth: 8 }] },
  },
);
