/** A thin promise wrapper around the git command line (git is on every machine Sluice runs on). */
import { execFile, spawn } from 'node:child_process';

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

export function git(cwd: string, args: string[], extraEnv: Record<string, string> = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      {
        cwd,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...GIT_ENV, ...extraEnv },
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        if (err) {
          reject(new GitError(args, stderr, typeof err.code === 'number' ? err.code : null, stdout));
          return;
        }
        resolve({ stdout, stderr });
      },
    );
  });
}

/** Run git with `input` on standard input and return raw standard output (for `cat-file --batch`). */
export function gitWithInput(
  cwd: string,
  args: string[],
  input: string,
  extraEnv: Record<string, string> = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...GIT_ENV, ...extraEnv },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new GitError(args, Buffer.concat(err).toString('utf8'), code));
        return;
      }
      resolve(Buffer.concat(out));
    });
    child.stdin.end(input);
  });
}
