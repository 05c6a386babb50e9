/**
 * What is read from a mirror's refs is read once per fetch into it (src/sources/git-mirror.ts
 * `readRefs`): an enqueue's look-ups, a change's speculative merge and its builds read the same
 * refs of the same mirror state. A fetch that brings something makes the next reading read again,
 * and so does one that ended while an answer was read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listChanges } from '../../../src/sources/git-changes';
import { GitMirrors } from '../../../src/sources/git-mirror';
import { createGitFixture, type GitFixture } from '../../helpers/git-fixtures';

describe('GitMirrors.readRefs', () => {
  let fixture: GitFixture;
  let root: string;
  let mirrors: GitMirrors;
  let reads = 0;

  const changes = async (): Promise<number[]> =>
    mirrors.readRefs('local', 'org/a', 'changes', async () => {
      reads += 1;
      const mirror = mirrors.mirrorPath('local', 'org/a');
      return (await listChanges(mirror)).map((change) => change.number);
    });

  beforeAll(async () => {
    fixture = createGitFixture();
    await fixture.createProject('org/a', { 'a.txt': 'a\n' });
    await fixture.pushChange('org/a', 1, 1, { parent: 'master', files: { '1.txt': '1\n' } });
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-mirror-readings-'));
    mirrors = new GitMirrors(root, () => fixture.baseDir);
  });

  afterAll(() => {
    fixture.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it('reads again only after a fetch into the mirror ended', async () => {
    await mirrors.update('local', 'org/a');
    expect(await changes()).toEqual([1]);
    expect(await changes()).toEqual([1]);
    expect(reads).toBe(1);

    // Nothing new at the origin: the fetch is skipped and the answer holds.
    await mirrors.update('local', 'org/a');
    expect(await changes()).toEqual([1]);
    expect(reads).toBe(1);

    await fixture.pushChange('org/a', 2, 1, { parent: 'master', files: { '2.txt': '2\n' } });
    await mirrors.update('local', 'org/a');
    expect(await changes()).toEqual([1, 2]);
    expect(reads).toBe(2);
  });

  it('reads again what was read while a fetch into the mirror ended', async () => {
    await fixture.pushChange('org/a', 3, 1, { parent: 'master', files: { '3.txt': '3\n' } });
    const mirror = mirrors.mirrorPath('local', 'org/a');
    const during = await mirrors.readRefs('local', 'org/a', 'during', async () => {
      const listed = (await listChanges(mirror)).map((change) => change.number);
      await mirrors.update('local', 'org/a'); // brings change 3 meanwhile
      return listed;
    });
    expect(during).toEqual([1, 2]);
    const after = await mirrors.readRefs('local', 'org/a', 'during', async () =>
      (await listChanges(mirror)).map((change) => change.number),
    );
    expect(after).toEqual([1, 2, 3]);
    expect(await changes()).toEqual([1, 2, 3]);
  });
});
