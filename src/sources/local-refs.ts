/**
 * What a local repository's refs are, read from its files without starting git: its HEAD file,
 * its `packed-refs` and every loose ref under `refs/` (the files ref store; git writes each by a
 * rename, so a read sees a whole value). A mirror (src/sources/git-mirror.ts) fetches a local
 * origin only when this changed since its last fetch: a fetch of unchanged refs brings nothing.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Above this many loose refs the files are not read (git is asked, by a fetch). */
const LOOSE_REF_LIMIT = 5000;

/**
 * A digest of the refs of the repository at `gitDir`, or null when it cannot be read this way
 * (no `refs` directory, the reftable ref store, too many loose refs): then a fetch decides.
 */
export function localRefsDigest(gitDir: string): string | null {
  if (!existsSync(path.join(gitDir, 'refs')) || existsSync(path.join(gitDir, 'reftable'))) {
    return null;
  }
  const hash = createHash('sha256');
  for (const name of ['HEAD', 'packed-refs']) {
    hash.update(`${name}\0${readOrEmpty(path.join(gitDir, name))}\0`);
  }
  let count = 0;
  const walk = (dir: string, relative: string): boolean => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    } catch {
      return true; // removed meanwhile: its refs are gone
    }
    for (const entry of entries) {
      const name = `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!walk(path.join(dir, entry.name), name)) {
          return false;
        }
      } else if (entry.isFile() && !entry.name.endsWith('.lock')) {
        if (++count > LOOSE_REF_LIMIT) {
          return false;
        }
        hash.update(`${name}\0${readOrEmpty(path.join(dir, entry.name))}\0`);
      }
    }
    return true;
  };
  return walk(path.join(gitDir, 'refs'), 'refs') ? hash.digest('hex') : null;
}

/** The git directory of a local repository: itself when bare, else its `.git` directory. */
export function localGitDir(repository: string): string {
  return existsSync(path.join(repository, 'objects')) ? repository : path.join(repository, '.git');
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
