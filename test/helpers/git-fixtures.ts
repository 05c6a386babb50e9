/**
 * Real git repositories for tests: a base directory of bare repositories (what a git
 * connection's `baseurl` points at) and a helper that commits files and pushes them as
 * branches or change refs, the way a developer would.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from './fixture-git';
import { formatChangeRef } from '../../src/sources/git-changes';

export interface FileSpec {
  [file: string]: string | { content: string; executable: boolean };
}

export interface GitFixture {
  /** Scratch directory of the test (removed by `cleanup`). */
  root: string;
  /** Directory of bare repositories (`<project>.git`). */
  baseDir: string;
  createProject(project: string, files: FileSpec, branch?: string): Promise<string>;
  /** Commit `files` on top of `parent` (a ref or sha of the project) and push it to `ref`; resolves with the sha. */
  commit(
    project: string,
    options: {
      parent: string;
      files: FileSpec;
      message?: string;
      ref: string;
      author?: string;
      authorDate?: string;
      delete?: string[];
    },
  ): Promise<string>;
  /** Commit and push as patchset `patchset` of change `number`. */
  pushChange(
    project: string,
    number: number,
    patchset: number,
    options: {
      parent: string;
      files: FileSpec;
      message?: string;
      author?: string;
      authorDate?: string;
      delete?: string[];
    },
  ): Promise<string>;
  revParse(project: string, rev: string): Promise<string>;
  showFile(project: string, rev: string, file: string): Promise<string>;
  cleanup(): void;
}

export function createGitFixture(): GitFixture {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sluice-git-'));
  const baseDir = path.join(root, 'repos');
  mkdirSync(baseDir, { recursive: true });
  let counter = 0;

  const bare = (project: string) => path.join(baseDir, `${project}.git`);

  async function commitAndPush(
    project: string,
    options: {
      parent: string | null;
      files: FileSpec;
      message?: string;
      ref: string;
      author?: string;
      /** `GIT_AUTHOR_DATE` (git's date formats, `@<seconds> +0000`). */
      authorDate?: string;
      delete?: string[];
    },
  ): Promise<string> {
    const work = path.join(root, `work-${counter++}`);
    if (options.parent === null) {
      mkdirSync(work, { recursive: true });
      await git(work, ['init', '--quiet', '--initial-branch=master']);
    } else {
      await git(root, ['clone', '--quiet', '--no-checkout', bare(project), work]);
      await git(work, ['fetch', '--quiet', 'origin', options.parent]);
      await git(work, ['checkout', '--quiet', '--detach', 'FETCH_HEAD']);
    }
    for (const [file, spec] of Object.entries(options.files)) {
      const full = path.join(work, file);
      mkdirSync(path.dirname(full), { recursive: true });
      const content = typeof spec === 'string' ? spec : spec.content;
      writeFileSync(full, content);
      if (typeof spec !== 'string' && spec.executable) {
        chmodSync(full, 0o755);
      }
    }
    for (const file of options.delete ?? []) {
      await git(work, ['rm', '--quiet', file]);
    }
    await git(work, ['add', '--all']);
    const author = options.author ?? 'Test Author <author@example.com>';
    const match = /^(.*) <(.*)>$/.exec(author);
    const env: Record<string, string> = match ? { GIT_AUTHOR_NAME: match[1], GIT_AUTHOR_EMAIL: match[2] } : {};
    if (options.authorDate) {
      env.GIT_AUTHOR_DATE = options.authorDate;
    }
    await git(work, ['commit', '--quiet', '--allow-empty', '-m', options.message ?? `Commit ${counter}`], env);
    const sha = (await git(work, ['rev-parse', 'HEAD'])).stdout.trim();
    if (options.parent === null) {
      mkdirSync(path.dirname(bare(project)), { recursive: true });
      await git(root, ['clone', '--quiet', '--bare', work, bare(project)]);
    } else {
      await git(work, ['push', '--quiet', '--force', 'origin', `HEAD:${options.ref}`]);
    }
    rmSync(work, { recursive: true, force: true });
    return sha;
  }

  return {
    root,
    baseDir,
    createProject: (project, files) =>
      commitAndPush(project, { parent: null, files, ref: 'refs/heads/master', message: `Initial ${project}` }),
    commit: (project, options) => commitAndPush(project, options),
    pushChange: (project, number, patchset, options) =>
      commitAndPush(project, { ...options, ref: formatChangeRef(number, patchset) }),
    revParse: async (project, rev) => (await git(bare(project), ['rev-parse', rev])).stdout.trim(),
    showFile: async (project, rev, file) => (await git(bare(project), ['show', `${rev}:${file}`])).stdout,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
