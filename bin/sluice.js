#!/usr/bin/env node
// Entry point of the `sluice` command. Runs the TypeScript sources through tsx, or the compiled
// build in dist/ when present (`npm run build`).
// Deployed as in production unless told otherwise: graphql-js leaves out its development-only
// checks then (it reads NODE_ENV when first loaded). Tests set NODE_ENV=test.
process.env.NODE_ENV ??= 'production';
const path = require('node:path');
const fs = require('node:fs');

const compiled = path.join(__dirname, '..', 'dist', 'src', 'server', 'cli.js');
let cli;
if (fs.existsSync(compiled) && !process.env.SLUICE_FROM_SOURCE) {
  cli = require(compiled);
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
