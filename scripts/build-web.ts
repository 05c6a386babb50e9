/**
 * Builds the dashboard (web/) into web/dist with Vite when the build is missing or older than its
 * sources: `npm start` runs it first (prestart), so a fresh clone serves the dashboard after
 * `npm install && npm start`. The stamp is a hash of the sources and the lockfile; `--force`
 * builds regardless. docs/development.md#web-dashboard
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { build as viteBuild } from 'vite' with { 'resolution-mode': 'import' };

const root = path.join(__dirname, '..');
const webDir = path.join(root, 'web');
const outDir = path.join(webDir, 'dist');
const stampFile = path.join(outDir, '.build-stamp');

/** Hash of every source file of web/ (not its build output) and of the lockfile. */
function sourceHash(): string {
  const hash = createHash('sha256');
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      const full = path.join(dir, entry);
      if (full === outDir || entry === 'node_modules') {
        continue;
      }
      if (statSync(full).isDirectory()) {
        visit(full);
      } else {
        hash.update(path.relative(root, full)).update('\0').update(readFileSync(full)).update('\0');
      }
    }
  };
  visit(webDir);
  hash.update(readFileSync(path.join(root, 'package-lock.json')));
  return hash.digest('hex');
}

async function main(): Promise<void> {
  const force = process.argv.includes('--force');
  const stamp = sourceHash();
  const current = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
  if (!force && current === stamp && existsSync(path.join(outDir, 'index.html'))) {
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
