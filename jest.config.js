// One jest run covers unit and integration tests. Type checking is a separate CI step
// (`npm run typecheck`), so ts-jest only transpiles here.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
  },
  // Generous: PGlite start-up and RSA key generation take tens of seconds on a loaded 2-core machine.
  testTimeout: 60000,
  maxWorkers: process.env.JEST_MAX_WORKERS ?? 2,
};
