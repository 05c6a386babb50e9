/**
 * Seeding of git repositories from plain directories (used by the quickstart): each
 * subdirectory of `seedDir` without a repository under `baseDir` becomes a bare repository whose
 * default branch holds the directory's files in one commit. Existing repositories are left alone,
 * so later pushes survive restarts.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, cpSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from '../../sources/git-cli';

export interface SeededRepository {
  project: string;
  path: string;
}

/**
 * Project names may contain one level of organisation (`org/project`): a directory
 * `seedDir/org/project` with no files of its own at `seedDir/org` level is treated as such.
 */
export async function seedRepositories(
  seedDir: string,
  baseDir: string,
  defaultBranch = 'master',
): Promise<SeededRepository[]> {
  const created: SeededRepository[] = [];
  mkdirSync(baseDir, { recursive: true });
  for (const project of listSeedProjects(seedDir)) {
    const target = path.join(baseDir, `${project}.git`);
    const plainTarget = path.join(baseDir, project);
    if (existsSync(target) || existsSync(plainTarget)) {
      continue;
    }
    const work = mkdtempSync(path.join(os.tmpdir(), 'sluice-seed-'));
    try {
      cpSync(path.join(seedDir, project), work, { recursive: true });
      await git(work, ['init', '--quiet', `--initial-branch=${defaultBranch}`]);
      await git(work, ['add', '--all']);
      await git(work, ['commit', '--quiet', '-m', `Initial content of ${project}`]);
      mkdirSync(path.dirname(target), { recursive: true });
      await git(baseDir, ['clone', '--quiet', '--bare', work, target]);
      created.push({ project, path: target });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return created;
}

function listSeedProjects(seedDir: string): string[] {
  const projects: string[] = [];
  for (const entry of readdirSync(seedDir).sort()) {
    const full = path.join(seedDir, entry);
    if (!statSync(full).isDirectory()) {
      continue;
    }
    const children = readdirSync(full);
    const isOrg =
      children.length > 0 && children.every((c) => statSync(path.join(full, c)).isDirectory() && !c.startsWith('.'));
    if (isOrg) {
      projects.push(...children.sort().map((c) => `${entry}/${c}`));
    } else {
      projects.push(entry);
    }
  }
  return projects;
}
