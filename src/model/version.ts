/** The running Sluice version, read once from package.json. */
import { readFileSync } from 'node:fs';
import path from 'node:path';

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

export const SLUICE_VERSION = readVersion();
