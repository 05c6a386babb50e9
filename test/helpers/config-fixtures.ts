/**
 * Turns a configuration fixture directory into real git repositories. Under `<fixture>/repos`,
 * each project is a directory (`name` or `org/name`); a project whose children are `@<branch>`
 * directories gets one branch per child (`@master` first), otherwise its files form `master`.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from '../../src/sources/git-cli';
import { GitConnection } from '../../src/sources/git-connection';
import { readTenantFile } from '../../src/config/load-tenants';
import type { ConnectionSet } from '../../src/config/tenant-loader';

export interface FixtureRepos {
  baseDir: string;
  connections: ConnectionSet;
  cleanup(): void;
}

function isProjectDir(dir: string): boolean {
  return readdirSync(dir).some(
    (entry) =>
      entry.startsWith('@') || entry.startsWith('.') || entry === 'zuul.d' || statSync(path.join(dir, entry)).isFile(),
  );
}

function listProjects(reposDir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(reposDir).sort()) {
    const full = path.join(reposDir, entry);
    if (!statSync(full).isDirectory()) {
      continue;
    }
    if (isProjectDir(full)) {
      out.push(entry);
    } else {
      out.push(
        ...readdirSync(full)
          .sort()
          .map((child) => `${entry}/${child}`),
      );
    }
  }
  return out;
}

async function commitTree(work: string, source: string, message: string): Promise<void> {
  for (const entry of readdirSync(work)) {
    if (entry !== '.git') {
      rmSync(path.join(work, entry), { recursive: true, force: true });
    }
  }
  cpSync(source, work, { recursive: true });
  await git(work, ['add', '--all']);
  await git(work, ['commit', '--quiet', '--allow-empty', '-m', message]);
}

/** Create one bare repository per fixture project under a new temporary directory. */
export async function buildFixtureRepos(
  fixtureDir: string,
  options: { hostname?: string } = {},
): Promise<FixtureRepos> {
  const baseDir = mkdtempSync(path.join(os.tmpdir(), 'sluice-config-fixture-'));
  const reposDir = path.join(fixtureDir, 'repos');
  await Promise.all(
    listProjects(reposDir).map(async (project) => {
      const source = path.join(reposDir, project);
      const branchDirs = readdirSync(source).filter((e) => e.startsWith('@'));
      const work = mkdtempSync(path.join(os.tmpdir(), 'sluice-fixture-work-'));
      try {
        await git(work, ['init', '--quiet', '--initial-branch=master']);
        if (branchDirs.length === 0) {
          await commitTree(work, source, `${project} master`);
        } else {
          const ordered = ['@master', ...branchDirs.filter((b) => b !== '@master').sort()];
          for (const dir of ordered) {
            const branch = dir.slice(1);
            if (branch !== 'master') {
              await git(work, ['checkout', '--quiet', '-b', branch, 'master']);
            }
            await commitTree(work, path.join(source, dir), `${project} ${branch}`);
          }
          await git(work, ['checkout', '--quiet', 'master']);
        }
        const target = path.join(baseDir, `${project}.git`);
        mkdirSync(path.dirname(target), { recursive: true });
        await git(baseDir, ['clone', '--quiet', '--bare', work, target]);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    }),
  );
  const connection = new GitConnection('gerrit', {
    driver: 'git',
    baseurl: baseDir,
    pollInterval: 60,
    canonicalHostname: options.hostname ?? 'review.example.com',
  });
  return {
    baseDir,
    connections: { drivers: { gerrit: 'git', timer: 'timer' }, git: new Map([['gerrit', connection]]) },
    cleanup: () => rmSync(baseDir, { recursive: true, force: true }),
  };
}

/** Read a fixture's tenant file against the fixture connections. */
export function fixtureTenantFile(
  fixtureDir: string,
  connections: ConnectionSet,
  file = 'main.yaml',
): ReturnType<typeof readTenantFile> {
  const tenantFile = path.join(fixtureDir, file);
  if (!existsSync(tenantFile)) {
    throw new Error(`fixture ${fixtureDir} has no ${file}`);
  }
  return readTenantFile(readFileSync(tenantFile, 'utf8'), connections);
}
