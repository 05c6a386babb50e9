// jest testSequencer: run the slowest test files first, so that neither of the two workers is
// left alone with a long file at the end of the run (docs/development.md#test-order). jest
// orders by the durations in its own cache; a fresh clone (CI) has none, and jest then orders by
// file size, which put the two chaos runs (small files, the longest tests) last. Files without a
// cached duration take theirs from test/durations.json, written from a full run by
// scripts/record-test-durations.js; a file in neither runs first, as jest does with new files.
/* eslint-disable @typescript-eslint/no-require-imports */
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const recorded = require('../durations.json');

const ROOT = path.join(__dirname, '..', '..');

class SlowFirstSequencer extends Sequencer {
  time(test) {
    const cached = super.time(test);
    if (cached !== undefined) {
      return cached;
    }
    const seconds = recorded[path.relative(ROOT, test.path).split(path.sep).join('/')];
    return seconds === undefined ? undefined : seconds * 1000;
  }
}

module.exports = SlowFirstSequencer;
