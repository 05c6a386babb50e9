// jest globalSetup: the compiled build (test/helpers/compile-once.js) and a directory of this
// run, `SLUICE_TEST_RUN_DIR`, which the test files of one run share answers in that do not change
// during it (test/helpers/run-cached-toolchain.ts); test/helpers/global-teardown.js removes it.
/* eslint-disable @typescript-eslint/no-require-imports */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const compileOnce = require('./compile-once');
const { pruneCodeCache } = require('./code-cache-runtime');

module.exports = async function globalSetup() {
  await compileOnce();
  pruneCodeCache();
  // Workers start after this, so they inherit the variable.
  process.env.SLUICE_TEST_RUN_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-test-run-'));
};
