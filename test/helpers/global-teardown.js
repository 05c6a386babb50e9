// jest globalTeardown: removes the directory of the run that test/helpers/global-setup.js made.
/* eslint-disable @typescript-eslint/no-require-imports */
const fs = require('node:fs');

module.exports = async function globalTeardown() {
  if (process.env.SLUICE_TEST_RUN_DIR) {
    fs.rmSync(process.env.SLUICE_TEST_RUN_DIR, { recursive: true, force: true });
  }
};
