/** The running Sluice version, read once from package.json. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from './package-root';

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

export const SLUICE_VERSION = readVersion();
