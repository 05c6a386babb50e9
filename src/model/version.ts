/** The running Sluice version, read once from package.json. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

function readVersion(): string {
  // src/model/ under tsx, dist/src/model/ in a compiled build (`npm run build`).
  const file = [
    path.join(__dirname, '..', '..', 'package.json'),
    path.join(__dirname, '..', '..', '..', 'package.json'),
  ].find((candidate) => existsSync(candidate));
  const pkg = JSON.parse(readFileSync(file ?? 'package.json', 'utf8')) as { version: string };
  return pkg.version;
}

export const SLUICE_VERSION = readVersion();
