#!/usr/bin/env node
// Entry point of the `sluice` command. Runs the compiled build in dist/ when it matches the
// sources (`npm run build`; `npm start` builds it first), else the TypeScript sources through
// tsx (slower to start: every module is compiled as it loads). SLUICE_FROM_SOURCE=1 forces the
// sources. docs/operations.md#the-sluice-command
// Deployed as in production unless told otherwise: graphql-js leaves out its development-only
// checks then (it reads NODE_ENV when first loaded). Tests set NODE_ENV=test.
process.env.NODE_ENV ??= 'production';
const path = require('node:path');
const { DIST, compiledIsFresh } = require('./build-state');

let cli;
if (!process.env.SLUICE_FROM_SOURCE && compiledIsFresh()) {
  cli = require(path.join(DIST, 'src', 'server', 'cli.js'));
} else {
  require('tsx/cjs');
  cli = require('../src/server/cli.ts');
}
cli.main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`sluice: ${err && err.stack ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  },
);
