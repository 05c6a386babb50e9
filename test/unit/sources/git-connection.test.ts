/** Reading branches and configuration files through a git connection. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from '../../../src/sources/git-cli';
import { GitConnection, mapConcurrent, RepositoryNotFoundError } from '../../../src/sources/git-connection';

let base: string;
let connection: GitConnection;
let masterSha: string;

function write(root: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
}

beforeAll(async () => {
  base = mkdtempSync(path.join(os.tmpdir(), 'sluice-gitconn-'));
  const work = path.join(base, 'org', 'repo');
  mkdirSync(work, { recursive: true });
  await git(work, ['init', '--quiet', '--initial-branch=main']);
  write(work, {
    'zuul.d/b.yaml': '- job: {name: b}\n',
    'zuul.d/a.yaml': '- job: {name: a}\n',
    'zuul.d/nested/c.yaml': '- job: {name: c}\n',
    'zuul.d/nested/notes.txt': 'ignored: not yaml\n',
    'zuul.d/skipped/.zuul.ignore': '',
    'zuul.d/skipped/d.yaml': '- job: {name: d}\n',
    '.zuul.yaml': '- job: {name: hidden}\n',
    'extra/one.yaml': '- job: {name: extra-one}\n',
    'extra.yaml': '- job: {name: extra-file}\n',
    'src/main.c': 'int main() {}\n',
  });
  await git(work, ['add', '--all']);
  await git(work, ['commit', '--quiet', '-m', 'initial']);
  await git(work, ['checkout', '--quiet', '-b', 'stable']);
  write(work, { 'zuul.d/a.yaml': '- job: {name: a-stable}\n' });
  await git(work, ['commit', '--quiet', '-am', 'stable']);
  await git(work, ['checkout', '--quiet', 'main']);
  masterSha = (await git(work, ['rev-parse', 'main'])).stdout.trim();
  connection = new GitConnection('local', { driver: 'git', baseurl: base, pollInterval: 60 });
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('GitConnection', () => {
  it('names projects canonically with the connection name when no hostname is set', () => {
    expect(connection.canonicalName('org/repo')).toBe('local/org/repo');
    expect(
      new GitConnection('c', {
        driver: 'git',
        baseurl: base,
        pollInterval: 1,
        canonicalHostname: 'git.example.com',
      }).canonicalName('x'),
    ).toBe('git.example.com/x');
  });

  it('lists branches with tips and the default branch of a non-bare repository', async () => {
    const refs = await connection.refs('org/repo');
    expect(refs.defaultBranch).toBe('main');
    expect(refs.branches.map((b) => b.name)).toEqual(['main', 'stable']);
    expect(refs.branches[0].sha).toBe(masterSha);
  });

  it('reads the first default location recursively in sorted order, pruning .zuul.ignore directories, then extra paths', async () => {
    const result = await connection.readConfigFiles('org/repo', masterSha, ['extra.yaml', 'extra/']);
    expect(result.files.map((f) => f.path)).toEqual([
      'zuul.d/a.yaml',
      'zuul.d/b.yaml',
      'zuul.d/nested/c.yaml',
      'extra.yaml',
      'extra/one.yaml',
    ]);
    expect(result.files[0].text).toBe('- job: {name: a}\n');
    expect(result.ignoredLocations).toEqual(['.zuul.yaml']);
  });

  it('reads a branch at its own tip', async () => {
    const refs = await connection.refs('org/repo');
    const stable = refs.branches.find((b) => b.name === 'stable');
    const result = await connection.readConfigFiles('org/repo', stable?.sha ?? '', []);
    expect(result.files[0].text).toBe('- job: {name: a-stable}\n');
  });

  it('reports unknown repositories', async () => {
    await expect(connection.refs('org/none')).rejects.toBeInstanceOf(RepositoryNotFoundError);
  });

  it('reads bare repositories and URL repositories through a mirror', async () => {
    const bareBase = mkdtempSync(path.join(os.tmpdir(), 'sluice-gitconn-bare-'));
    try {
      await git(bareBase, [
        'clone',
        '--quiet',
        '--bare',
        path.join(base, 'org', 'repo'),
        path.join(bareBase, 'org', 'repo.git'),
      ]);
      const bare = new GitConnection('bare', { driver: 'git', baseurl: bareBase, pollInterval: 60 });
      expect((await bare.refs('org/repo')).branches.map((b) => b.name)).toEqual(['main', 'stable']);
      const viaUrl = new GitConnection(
        'url',
        { driver: 'git', baseurl: `file://${bareBase}`, pollInterval: 60 },
        path.join(bareBase, 'cache'),
      );
      const refs = await viaUrl.refs('org/repo.git');
      expect(refs.branches.map((b) => b.name)).toEqual(['main', 'stable']);
      expect((await viaUrl.readConfigFiles('org/repo.git', refs.branches[0].sha)).files).toHaveLength(3);
    } finally {
      rmSync(bareBase, { recursive: true, force: true });
    }
  });

  it('runs tasks with bounded concurrency, keeping order', async () => {
    let active = 0;
    let peak = 0;
    const result = await mapConcurrent([1, 2, 3, 4, 5, 6], 2, async (n) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setImmediate(resolve));
      active--;
      return n * 10;
    });
    expect(result).toEqual([10, 20, 30, 40, 50, 60]);
    expect(peak).toBe(2);
  });
});
