/** The directory of Sluice's package.json: two levels above this file under tsx, three in a compiled build (dist/src/model/). */
import { existsSync } from 'node:fs';
import path from 'node:path';

function findPackageRoot(): string {
  const candidates = [path.join(__dirname, '..', '..'), path.join(__dirname, '..', '..', '..')];
  return candidates.find((dir) => existsSync(path.join(dir, 'package.json'))) ?? process.cwd();
}

export const PACKAGE_ROOT = findPackageRoot();
