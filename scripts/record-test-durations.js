// Writes test/durations.json, the per-file test durations the slow-first sequencer orders a run
// by when jest has no cache of its own (test/helpers/slow-first-sequencer.js,
// docs/development.md#test-order), from the JSON report of a full run:
//   npm test -- --json --outputFile=/tmp/jest-report.json
//   node scripts/record-test-durations.js /tmp/jest-report.json
// Take the report from a run on an otherwise idle machine: the order only needs the relative sizes.
/* global console */
/* eslint-disable @typescript-eslint/no-require-imports */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const reportFile = process.argv[2];
if (!reportFile) {
  console.error('usage: node scripts/record-test-durations.js <jest --json report>');
  process.exit(2);
}
const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
const durations = {};
for (const result of report.testResults ?? []) {
  const seconds = (result.endTime - result.startTime) / 1000;
  if (Number.isFinite(seconds)) {
    durations[path.relative(ROOT, result.name).split(path.sep).join('/')] = Math.round(seconds * 10) / 10;
  }
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
fs.writeFileSync(path.join(ROOT, 'test', 'durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`recorded ${Object.keys(sorted).length} test files in test/durations.json`);
