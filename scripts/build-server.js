// `npm run build` (and `npm start` first): compiles the server's TypeScript into dist/ with
// esbuild, one JavaScript file per source file (no bundling, no type check: `npm run typecheck`
// does that), so `sluice` starts without compiling TypeScript (bin/sluice.js). Skipped when
// dist/ is fresh (bin/build-state.js); `--force` builds regardless. The new build is written
// beside dist/ and swapped in, so a `sluice` starting meanwhile sees the old build or none.
// docs/development.md#commands
/* global console */
/* eslint-disable @typescript-eslint/no-require-imports */
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, DIST, STAMP, sourceState, compiledIsFresh } = require('../bin/build-state');

async function main() {
  if (!process.argv.includes('--force') && compiledIsFresh()) {
    console.log('dist/ is up to date.');
    return;
  }
  const { build } = require('esbuild');
  const { files } = sourceState();
  const started = Date.now();
  const next = `${DIST}.new-${process.pid}`;
  fs.rmSync(next, { recursive: true, force: true });
  await build({
    entryPoints: files,
    outdir: next,
    outbase: ROOT,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    tsconfig: path.join(ROOT, 'tsconfig.json'),
  });
  fs.writeFileSync(path.join(next, path.basename(STAMP)), `files ${files.length}\n`);
  const old = `${DIST}.old-${process.pid}`;
  try {
    fs.renameSync(DIST, old);
  } catch (err) {
    if (err.code !== 'ENOENT') {
      throw err;
    }
  }
  try {
    fs.renameSync(next, DIST);
  } catch (err) {
    // Another build swapped its own in at the same moment: keep that one.
    fs.rmSync(next, { recursive: true, force: true });
    if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') {
      throw err;
    }
  }
  fs.rmSync(old, { recursive: true, force: true });
  console.log(`compiled ${files.length} files into dist/ in ${Date.now() - started} ms.`);
}

main().catch((err) => {
  console.error(`build failed: ${err && err.message ? err.message : String(err)}`);
  process.exit(1);
});
