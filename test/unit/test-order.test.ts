/**
 * The order a fresh clone runs the suite in (docs/development.md#test-order): with no jest cache,
 * the recorded slowest files come first, and test/durations.json names only files that exist.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

/* eslint-disable @typescript-eslint/no-require-imports */
const Sequencer = require('../helpers/slow-first-sequencer.js') as new (options: unknown) => {
  sort(tests: unknown[]): Array<{ path: string }>;
};
const recorded = require('../durations.json') as Record<string, number>;

const ROOT = path.join(__dirname, '..', '..');

function testOf(file: string, size: number): unknown {
  return {
    path: path.join(ROOT, file),
    context: { config: { cache: false }, hasteFS: { getSize: () => size } },
  };
}

describe('the slow-first test order', () => {
  it('records only test files that exist', () => {
    const missing = Object.keys(recorded).filter((file) => !existsSync(path.join(ROOT, file)));
    expect(missing).toEqual([]);
  });

  it('runs the recorded slowest files first when jest has no cache, whatever their size', () => {
    const bySpeed = Object.entries(recorded).sort(([, a], [, b]) => b - a);
    const [slowest] = bySpeed[0] ?? [];
    const [fastest] = bySpeed[bySpeed.length - 1] ?? [];
    expect(slowest).toBeDefined();
    // The slowest file is given the smallest size: jest's own order (file size) would put it last.
    const tests = [testOf(fastest ?? '', 100_000), testOf(slowest ?? '', 10)];
    const order = new Sequencer({}).sort(tests).map((test) => path.relative(ROOT, test.path));
    expect(order).toEqual([slowest, fastest]);
  });

  it('puts a file with no recorded duration first, as jest does with a new file', () => {
    const [known] = Object.keys(recorded);
    const order = new Sequencer({})
      .sort([testOf(known ?? '', 10), testOf('test/unit/not-yet-recorded.test.ts', 10)])
      .map((test) => path.relative(ROOT, test.path));
    expect(order).toEqual(['test/unit/not-yet-recorded.test.ts', known]);
  });
});
