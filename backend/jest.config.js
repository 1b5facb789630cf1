/**
 * Jest runs the backend's unit tests (src/**\/*.spec.ts), integration tests against the real
 * PostgreSQL and Redis (test/**\/*.int-spec.ts), browser tests (test/browser/*.e2e-spec.ts) and the
 * fault suite (test/faults/*.fault-spec.ts: the real API and worker processes under faults; its
 * figures are printed at the end by test/faults/fault-reporter.js).
 * Nest 12 ships ESM only: swc transforms it to CommonJS for Jest.
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];
const esm = ['@nestjs', 'uid', 'file-type', 'load-esm', 'strtok3', 'token-types', '@tokenizer', 'uint8array-extras', 'nestjs-pino'];

const base = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)sx?$': swc },
  transformIgnorePatterns: [`/node_modules/(?!(${esm.join('|')})/)`],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  // each worker its own database and Redis database (made by test/global-setup.js)
  setupFiles: ['<rootDir>/test/worker-env.js'],
};

const retried = { setupFilesAfterEnv: ['<rootDir>/test/retry-in-ci.js'] };

module.exports = {
  globalSetup: '<rootDir>/test/global-setup.js',
  globalTeardown: '<rootDir>/test/global-teardown.js',
  testTimeout: 60_000,
  // The suites run two at a time in two worker processes (`--maxWorkers=2`, scripts/test.mjs), each
  // of which Jest replaces once it holds more than this after a test file. Each file loads the app afresh
  // (Nest, TypeORM, sharp, ...), and what survives a file adds up: in one process the heap grew by
  // about 7 MB a file and a full run died out of memory near 3.7 GB after 1,100 s.
  workerIdleMemoryLimit: '1GB',
  reporters: ['default', '<rootDir>/test/faults/fault-reporter.js', '<rootDir>/test/retried-reporter.js'],
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    // in CI, a failed test of these three is run once more and named if it passes then (test/retry-in-ci.js)
    { ...base, ...retried, displayName: 'integration', testMatch: ['<rootDir>/test/**/*.int-spec.ts'] },
    { ...base, ...retried, displayName: 'browser', testMatch: ['<rootDir>/test/browser/**/*.e2e-spec.ts'] },
    { ...base, ...retried, displayName: 'faults', testMatch: ['<rootDir>/test/faults/**/*.fault-spec.ts'] },
  ],
};
