/** The git driver's ChangeSource over real repositories: patchset currency, merged state, dependents. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GitChangeSource } from '../../../src/drivers/git/change-source';
import type { GitProjects } from '../../../src/sources/git-projects';
import { GitMirrors } from '../../../src/sources/git-mirror';
import { createGitFixture, type GitFixture } from '../../helpers/git-fixtures';

const HOST = 'git.example.com';
const PROJECT = 'org/app';
const CANONICAL = `${HOST}/${PROJECT}`;

describe('GitChangeSource', () => {
  let fixture: GitFixture;
  let root: string;
  let source: GitChangeSource;

  beforeAll(async () => {
    fixture = createGitFixture();
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-change-source-'));
    await fixture.createProject(PROJECT, { 'README.md': 'app\n' });
    const projects: GitProjects = {
      locate: (canonical) =>
        canonical === CANONICAL ? { connection: 'local', name: PROJECT, defaultBranch: 'master' } : null,
      canonicalName: (_connection, name) => `${HOST}/${name}`,
    };
    source = new GitChangeSource(new GitMirrors(path.join(root, 'mirrors'), () => fixture.baseDir), projects);
  });

  afterAll(() => {
    fixture.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it('tells whether a patchset is the current one and whether it is merged', async () => {
    await fixture.pushChange(PROJECT, 7, 1, { parent: 'master', files: { 'a.txt': 'one\n' } });
    await fixture.pushChange(PROJECT, 7, 2, { parent: 'master', files: { 'a.txt': 'two\n' } });
    const [old, latest, named] = [
      await source.getChange(CANONICAL, 7, '1'),
      await source.getChange(CANONICAL, 7),
      await source.getChange(CANONICAL, 7, '2'),
    ];
    expect([old?.patchset, old?.currentPatchset, old?.merged]).toEqual(['1', false, false]);
    expect([latest?.patchset, latest?.currentPatchset]).toEqual(['2', true]);
    expect(named?.currentPatchset).toBe(true);
    expect(
      (await source.openChanges(CANONICAL)).map((change) => [change.number, change.patchset, change.currentPatchset]),
    ).toEqual([[7, '2', true]]);
  });

  it('finds the open changes that name a change in Depends-On (by project:number or by change ref)', async () => {
    await fixture.pushChange(PROJECT, 8, 1, {
      parent: 'master',
      files: { 'b.txt': 'b\n' },
      message: 'Needs 7\n\nDepends-On: org/app:7\n',
    });
    await fixture.pushChange(PROJECT, 9, 1, {
      parent: 'master',
      files: { 'c.txt': 'c\n' },
      message: 'Needs 7 too\n\nDepends-On: refs/changes/07/7/1\n',
    });
    await fixture.pushChange(PROJECT, 10, 1, { parent: 'master', files: { 'd.txt': 'd\n' }, message: 'Unrelated' });
    const seven = await source.getChange(CANONICAL, 7);
    if (!seven) {
      throw new Error('change 7 not found');
    }
    const children = await source.changesDependingOn(seven, [CANONICAL]);
    expect(children.map((child) => [child.number, child.dependsOn])).toEqual([
      [8, [{ project: CANONICAL, number: 7 }]],
      [9, [{ project: CANONICAL, number: 7 }]],
    ]);
    // A new patchset of 8 without the trailer is no longer a child (the cache is keyed by commit).
    await fixture.pushChange(PROJECT, 8, 2, {
      parent: 'master',
      files: { 'b.txt': 'b2\n' },
      message: 'Stands alone now',
    });
    expect((await source.changesDependingOn(seven, [CANONICAL])).map((child) => child.number)).toEqual([9]);
  });
});
