// One jest run covers unit and integration tests. Type checking is a separate CI step
// (`npm run typecheck`), so the TypeScript is only transpiled here, by esbuild
// (test/helpers/esbuild-transform.js, docs/development.md#how-the-suite-is-transformed).
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': '<rootDir>/test/helpers/esbuild-transform.js',
  },
  // Generous: PGlite start-up and RSA key generation take tens of seconds on a loaded 2-core machine.
  testTimeout: 60000,
  // The `sluice` processes tests spawn run the compiled build made here once per run; the files of
  // a run share a directory of answers that do not change during it (SLUICE_TEST_RUN_DIR).
  globalSetup: '<rootDir>/test/helpers/global-setup.js',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.js',
  // Slowest files first, from jest's cache or test/durations.json (docs/development.md#test-order).
  // V8's compiled code of the modules is kept across test files (docs/development.md#v8-code-cache).
  runtime: '<rootDir>/test/helpers/code-cache-runtime.js',
  testSequencer: '<rootDir>/test/helpers/slow-first-sequencer.js',
  maxWorkers: process.env.JEST_MAX_WORKERS ?? 2,
  // Under --experimental-vm-modules (npm test: PGlite's dynamic import) node keeps every test
  // file's vm context alive, about 25 MB of heap per file that boots a server, so over a full run
  // a worker's heap passes a gigabyte and its exit at the end can outlast the 500 ms jest allows
  // ("A worker process has failed to exit gracefully"). A worker above this heap is replaced
  // between files (docs/development.md#tests).
  workerIdleMemoryLimit: '512MB',
  // The summary ends with the files whose tests were skipped and why (docs/development.md#tests).
  reporters: ['default', '<rootDir>/test/helpers/skipped-reporter.js'],
};
