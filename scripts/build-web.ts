/**
 * Builds the dashboard (web/) into web/dist with Vite when the build is missing or older than its
 * sources: `npm start` runs it first (prestart), so a fresh clone serves the dashboard after
 * `npm install && npm start`. The stamp is a hash of the sources and the lockfile; `--force`
 * builds regardless. docs/development.md#web-dashboard
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { build as viteBuild } from 'vite' with { 'resolution-mode': 'import' };
import { dashboardBuildIsFresh, sourceHash, stampFile } from './web-build-stamp';

const webDir = path.join(__dirname, '..', 'web');

async function main(): Promise<void> {
  const force = process.argv.includes('--force');
  const stamp = sourceHash();
  if (!force && dashboardBuildIsFresh(stamp)) {
    console.log('web/dist is up to date.');
    return;
  }
  let build: typeof viteBuild;
  try {
    ({ build } = await import('vite'));
  } catch {
    console.error('Cannot build the dashboard: vite is not installed (run `npm install`, with dev dependencies).');
    process.exit(1);
  }
  await build({ configFile: path.join(webDir, 'vite.config.mts'), logLevel: 'warn' });
  writeFileSync(stampFile, `${stamp}\n`);
  console.log('built the dashboard into web/dist.');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
