/** A thin promise wrapper around the git command line (git is on every machine Sluice runs on). */
import { run } from './spawner';

export interface GitResult {
  stdout: string;
  stderr: string;
}

export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly stderr: string,
    readonly exitCode: number | null,
    /** What git printed before failing (some commands report details there, e.g. merge-tree). */
    readonly stdout = '',
  ) {
    super(`git ${args.join(' ')} failed (${exitCode ?? 'signal'}): ${stderr.trim()}`);
    this.name = 'GitError';
  }
}

/** A fixed identity and no user/system config, so results do not depend on the host's git setup. */
const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  GIT_AUTHOR_NAME: 'Sluice',
  GIT_AUTHOR_EMAIL: 'sluice@localhost',
  GIT_COMMITTER_NAME: 'Sluice',
  GIT_COMMITTER_EMAIL: 'sluice@localhost',
};

/**
 * Extra environment for git in a throwaway clone: no `git maintenance run --auto` process after a
 * fetch, merge or commit (such a clone never grows enough to need it; src/executor/workspace-git.ts).
 */
export const NO_AUTO_MAINTENANCE: Readonly<Record<string, string>> = {
  GIT_CONFIG_COUNT: '1',
  GIT_CONFIG_KEY_0: 'maintenance.auto',
  GIT_CONFIG_VALUE_0: 'false',
};

/** git's environment: the fixed one above, PATH and HOME of this process, then `extraEnv`. */
function gitEnv(extraEnv: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...GIT_ENV, ...extraEnv };
}

/**
 * Run git to its end, started by the small process of src/sources/spawner.ts rather than this
 * one (docs/operations.md#starting-git-from-a-small-process); a non-zero exit rejects with a GitError.
 */
export async function git(cwd: string, args: string[], extraEnv: Record<string, string> = {}): Promise<GitResult> {
  const done = await run('git', args, { cwd, env: gitEnv(extraEnv) }).catch((error: Error) => {
    // git could not be started (no such directory, no git): a failure without an exit code.
    throw new GitError(args, error.message, null);
  });
  const stdout = done.stdout.toString('utf8');
  const stderr = done.stderr.toString('utf8');
  if (done.code !== 0) {
    throw new GitError(args, stderr, done.code, stdout);
  }
  return { stdout, stderr };
}

/** Run git with `input` on standard input and return raw standard output (for `cat-file --batch`). */
export async function gitWithInput(
  cwd: string,
  args: string[],
  input: string,
  extraEnv: Record<string, string> = {},
): Promise<Buffer> {
  const done = await run('git', args, { cwd, env: gitEnv(extraEnv), input });
  if (done.code !== 0) {
    throw new GitError(args, done.stderr.toString('utf8'), done.code);
  }
  return done.stdout;
}
