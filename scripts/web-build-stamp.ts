/**
 * The stamp of the dashboard's build (scripts/build-web.ts): a hash of every source file of web/
 * (not its build output) and of the lockfile, written into web/dist/.build-stamp after a build.
 * The browser tests check it in their own process (test/e2e/deployment.ts) before they would
 * start a build. docs/development.md#web-dashboard
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '..');
const webDir = path.join(root, 'web');
export const outDir = path.join(webDir, 'dist');
export const stampFile = path.join(outDir, '.build-stamp');

/** Hash of every source file of web/ (not its build output) and of the lockfile. */
export function sourceHash(): string {
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

/** Whether web/dist holds a build of the current sources (its stamp is `stamp`). */
export function dashboardBuildIsFresh(stamp = sourceHash()): boolean {
  const current = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
  return current === stamp && existsSync(path.join(outDir, 'index.html'));
}
