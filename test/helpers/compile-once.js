// jest globalSetup: compile the server into dist/ once before the run (scripts/build-server.js,
// skipped when dist/ is already fresh), so every `sluice` process a test spawns starts from the
// compiled build (bin/sluice.js) instead of compiling the TypeScript sources through tsx at each
// start, about 2 s of CPU per spawn on this machine (docs/development.md#how-long-the-suite-takes).
// A source edited during the run makes dist/ stale again; bin/sluice.js then runs the sources.
/* eslint-disable @typescript-eslint/no-require-imports */
const { execFileSync } = require('node:child_process');
const path = require('node:path');

module.exports = async function compileOnce() {
  execFileSync(process.execPath, [path.join(__dirname, '..', '..', 'scripts', 'build-server.js')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
};
