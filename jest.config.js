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
  testTimeout: 30000,
  maxWorkers: process.env.JEST_MAX_WORKERS ?? 2,
};
