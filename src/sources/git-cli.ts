/** A thin promise wrapper around the git command line (git is on every machine Sluice runs on). */
import { runThroughHelper } from './git-runner';

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
 * Git configuration given through the environment (`GIT_CONFIG_COUNT`, `GIT_CONFIG_KEY_<n>`,
 * `GIT_CONFIG_VALUE_<n>`), as if each were a `-c key=value`. One such set per command: a second
 * would take the same variable names.
 */
export function gitConfigEnv(settings: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const entries = Object.entries(settings);
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(entries.length) };
  entries.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

/**
 * Extra environment for git in a throwaway clone: no `git maintenance run --auto` process after a
 * fetch, merge or commit (such a clone never grows enough to need it; src/executor/workspace-git.ts).
 */
export const NO_AUTO_MAINTENANCE = gitConfigEnv({ 'maintenance.auto': 'false' });

/** Git's output is at most this large (64 MB); more fails the command. */
const MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * Run git in `cwd`, started by a small helper process (src/sources/git-runner.ts); a failure
 * (an exit status other than 0, a signal, no git) is a GitError.
 */
async function runGit(
  cwd: string,
  args: string[],
  extraEnv: Record<string, string>,
  input?: string,
): Promise<{ stdout: Buffer; stderr: string }> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...GIT_ENV, ...extraEnv };
  const result = await runThroughHelper({ file: 'git', args, cwd, env, maxBuffer: MAX_OUTPUT, input });
  const stderr = result.stderr.toString('utf8');
  if (result.failure !== null) {
    throw new GitError(args, stderr, result.code, input === undefined ? result.stdout.toString('utf8') : '');
  }
  return { stdout: result.stdout, stderr };
}

export async function git(cwd: string, args: string[], extraEnv: Record<string, string> = {}): Promise<GitResult> {
  const { stdout, stderr } = await runGit(cwd, args, extraEnv);
  return { stdout: stdout.toString('utf8'), stderr };
}

/** Run git with `input` on standard input and return raw standard output (for `cat-file --batch`). */
export async function gitWithInput(
  cwd: string,
  args: string[],
  input: string,
  extraEnv: Record<string, string> = {},
): Promise<Buffer> {
  return (await runGit(cwd, args, extraEnv, input)).stdout;
}
