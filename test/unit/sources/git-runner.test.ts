/**
 * Git through the helper process (src/sources/git-runner.ts, docs/operations.md#git-processes):
 * the same outputs, exit codes and errors as a git started directly, standard input (text or bytes) passed on,
 * and commands at once answered each to its caller.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git, GitError, gitWithInput } from '../../../src/sources/git-cli';
import { runThroughHelper } from '../../../src/sources/git-runner';

describe('git through the helper process', () => {
  let repo: string;

  beforeAll(async () => {
    repo = mkdtempSync(path.join(os.tmpdir(), 'sluice-git-runner-'));
    await git(repo, ['init', '--quiet', '--initial-branch=master']);
    // Bytes that are not valid UTF-8 and a line without an end: raw output must come back intact.
    writeFileSync(path.join(repo, 'bytes.bin'), Buffer.from([0xff, 0xfe, 0x00, 0x0a, 0x41]));
    writeFileSync(path.join(repo, 'ünïcode.txt'), 'grüße\n');
    await git(repo, ['add', '--all']);
    await git(repo, ['commit', '--quiet', '-m', 'first']);
  });

  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('answers as git started directly does', async () => {
    const direct = execFileSync('git', ['log', '--format=%H %s', '--name-only', '-z'], { cwd: repo, encoding: 'utf8' });
    expect((await git(repo, ['log', '--format=%H %s', '--name-only', '-z'])).stdout).toBe(direct);
  });

  it('hands standard input to git and its raw output back', async () => {
    const blob = (await git(repo, ['rev-parse', 'HEAD:bytes.bin'])).stdout.trim();
    const out = await gitWithInput(repo, ['cat-file', '--batch'], `${blob}\n`);
    expect(out.subarray(out.indexOf(0x0a) + 1, out.length - 1)).toEqual(Buffer.from([0xff, 0xfe, 0x00, 0x0a, 0x41]));
  });

  it('hands bytes that are not text to standard input unchanged', async () => {
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x0a, 0x41, 0x80]);
    const answer = await runThroughHelper({
      file: 'git',
      args: ['hash-object', '--stdin'],
      cwd: repo,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      maxBuffer: 1024,
      input: bytes,
    });
    const direct = execFileSync('git', ['hash-object', '--stdin'], { cwd: repo, input: bytes, encoding: 'utf8' });
    expect(answer.stdout.toString('utf8')).toBe(direct);
  });

  it('fails with a GitError holding the exit code, standard error and output', async () => {
    const failure = await git(repo, ['rev-parse', '--verify', 'no-such-branch']).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GitError);
    expect(failure).toMatchObject({ exitCode: 128, args: ['rev-parse', '--verify', 'no-such-branch'] });
    expect((failure as GitError).stderr).toContain('fatal');
    const missingCwd = await git(path.join(repo, 'nowhere'), ['status']).catch((error: unknown) => error);
    expect(missingCwd).toBeInstanceOf(GitError);
    expect(missingCwd).toMatchObject({ exitCode: null });
  });

  it('runs commands at once and answers each its own', async () => {
    const inputs = Array.from({ length: 20 }, (_, index) => `content ${index}\n`);
    const answers = await Promise.all(inputs.map((input) => gitWithInput(repo, ['hash-object', '--stdin'], input)));
    const direct = inputs.map((input) =>
      execFileSync('git', ['hash-object', '--stdin'], { cwd: repo, input, encoding: 'utf8' }),
    );
    expect(answers.map((answer) => answer.toString('utf8'))).toEqual(direct);
    expect(new Set(direct).size).toBe(inputs.length);
  });
});
