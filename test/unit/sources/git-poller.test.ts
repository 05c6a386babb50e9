import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from '../../../src/sources/git-cli';
import { GitMirrors } from '../../../src/sources/git-mirror';
import type { TimerClock } from '../../../src/engine/ports/clock';
import { GitPoller, ZERO_SHA, type GitTriggerEvent } from '../../../src/drivers/git/poller';
import { MemoryPollerState } from '../../../src/drivers/git/poller-state';
import { Merger } from '../../../src/executor/merger';
import { RepoCache } from '../../../src/executor/repo-cache';
import { createGitFixture, type GitFixture } from '../../helpers/git-fixtures';

/** A clock whose timers fire only when the test says so. */
function manualClock(): TimerClock & { pending: { callback: () => void; ms: number }[]; fire(): void } {
  const pending: { callback: () => void; ms: number }[] = [];
  return {
    pending,
    now: () => new Date('2026-01-01T00:00:00Z'),
    after: (ms, callback) => {
      const entry = { callback, ms };
      pending.push(entry);
      return {
        cancel: () => {
          const index = pending.indexOf(entry);
          if (index >= 0) {
            pending.splice(index, 1);
          }
        },
      };
    },
    fire() {
      const entry = pending.shift();
      entry?.callback();
    },
  };
}

describe('GitPoller', () => {
  let fixture: GitFixture;
  let work: string;
  let events: GitTriggerEvent[];
  let poller: GitPoller;

  beforeEach(async () => {
    fixture = createGitFixture();
    await fixture.createProject('org/app', { README: 'x\n' });
    work = mkdtempSync(path.join(os.tmpdir(), 'sluice-poller-'));
    events = [];
    poller = new GitPoller({
      connection: 'local',
      mirrors: new GitMirrors(path.join(work, 'mirrors'), () => fixture.baseDir),
      projects: () => ['org/app'],
      intervalMs: 1000,
      onEvent: (event) => {
        events.push(event);
      },
      clock: manualClock(),
    });
  });

  afterEach(async () => {
    await poller.stop();
    fixture.cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  it('records a baseline first, then reports branch and tag updates, creations and deletions', async () => {
    expect(await poller.pollNow()).toEqual([]);
    const old = await fixture.revParse('org/app', 'master');
    const next = await fixture.commit('org/app', { parent: 'master', files: { a: '1\n' }, ref: 'refs/heads/master' });
    const feature = await fixture.commit('org/app', {
      parent: 'master',
      files: { b: '1\n' },
      ref: 'refs/heads/feature',
    });
    await fixture.commit('org/app', { parent: 'master', files: {}, ref: 'refs/tags/v1' });
    const emitted = await poller.pollNow();
    expect(
      events.map((e) =>
        e.type === 'ref-updated' ? [e.ref, e.oldrev, e.newrev, e.branchCreated, e.branchDeleted, e.own] : [],
      ),
    ).toEqual([
      ['refs/heads/feature', ZERO_SHA, feature, true, false, false],
      ['refs/heads/master', old, next, false, false, false],
      ['refs/tags/v1', ZERO_SHA, expect.stringMatching(/^[0-9a-f]{40}$/), false, false, false],
    ]);
    expect(emitted).toEqual(events);
    expect(events[2]).toMatchObject({ branch: null, tag: 'v1', connection: 'local', project: 'org/app' });
    events.length = 0;
    await git(`${fixture.baseDir}/org/app.git`, ['update-ref', '-d', 'refs/heads/feature']);
    await poller.pollNow();
    expect(events).toEqual([
      expect.objectContaining({
        type: 'ref-updated',
        ref: 'refs/heads/feature',
        oldrev: feature,
        newrev: ZERO_SHA,
        branchDeleted: true,
      }),
    ]);
    events.length = 0;
    expect(await poller.pollNow()).toEqual([]);
  });

  it('reports a new change ref as patchset-created with its target branch and owner', async () => {
    await poller.pollNow();
    const sha = await fixture.pushChange('org/app', 7, 1, {
      parent: 'master',
      files: { c: '1\n' },
      message: 'Fix it\n\nTarget-Branch: stable\nDepends-On: org/lib:2\n',
      author: 'Bob <bob@example.com>',
    });
    await poller.pollNow();
    expect(events).toEqual([
      {
        type: 'patchset-created',
        connection: 'local',
        project: 'org/app',
        ref: 'refs/changes/07/7/1',
        change: 7,
        patchset: 1,
        newrev: sha,
        branch: 'stable',
        owner: { name: 'Bob', email: 'bob@example.com' },
        subject: 'Fix it',
        dependsOn: [{ kind: 'change', project: 'org/lib', number: 2 }],
        timestamp: new Date('2026-01-01T00:00:00Z'),
      },
    ]);
  });

  it("emits Sluice's own merge once, marked own, and the next poll stays quiet", async () => {
    await poller.pollNow();
    await fixture.pushChange('org/app', 8, 1, { parent: 'master', files: { d: '1\n' } });
    await poller.pollNow();
    events.length = 0;
    const merger = new Merger(
      new RepoCache(path.join(work, 'cache'), { local: { baseurl: fixture.baseDir, canonicalHostname: 'h' } }),
      path.join(work, 'scratch'),
    );
    const merged = await merger.mergeToBranch({
      connection: 'local',
      project: 'org/app',
      ref: 'refs/changes/08/8/1',
      targetBranch: 'master',
      mergeMode: 'merge-resolve',
    });
    if (!merged.ok) {
      throw new Error(merged.detail);
    }
    const own = await poller.expectOwnUpdate('org/app', 'master', merged.newrev, merged.oldrev);
    expect(own).toMatchObject({
      type: 'ref-updated',
      ref: 'refs/heads/master',
      oldrev: merged.oldrev,
      newrev: merged.newrev,
      own: true,
    });
    expect(events).toHaveLength(1);
    expect(await poller.pollNow()).toEqual([]);
    // Announcing it again does not emit a second event.
    expect(await poller.expectOwnUpdate('org/app', 'master', merged.newrev)).toBeNull();
    expect(events).toHaveLength(1);
  });

  it('schedules the next poll only after the previous one finished, and stops', async () => {
    const clock = manualClock();
    let polls = 0;
    const timed = new GitPoller({
      connection: 'local',
      mirrors: new GitMirrors(path.join(work, 'timed'), () => fixture.baseDir),
      projects: () => {
        polls += 1;
        return ['org/app'];
      },
      intervalMs: 5000,
      onEvent: () => undefined,
      clock,
    });
    const baselines = timed.start();
    expect(clock.pending.map((p) => p.ms)).toEqual([0]);
    clock.fire();
    expect(clock.pending).toEqual([]); // nothing scheduled while the poll runs
    await baselines; // the start recorded the baseline of org/app, before the timer's poll
    await timed.pollNow(); // queued behind the timer's poll
    expect(polls).toBe(3);
    await new Promise((resolve) => setImmediate(resolve));
    expect(clock.pending.map((p) => p.ms)).toEqual([5000]);
    await timed.stop();
    expect(clock.pending).toEqual([]);
  });

  it('has the baseline recorded once start resolves: a change pushed right after is reported', async () => {
    await poller.start();
    await fixture.pushChange('org/app', 1, 1, { parent: 'master', files: { c: '1\n' } });
    // The timer's first poll has not run (manual clock): this poll compares with the start's baseline.
    expect((await poller.pollNow()).map((e) => (e.type === 'patchset-created' ? e.ref : e.type))).toEqual([
      'refs/changes/01/1/1',
    ]);
  });

  it('keeps polling other projects when one fails', async () => {
    const errors: string[] = [];
    const broken = new GitPoller({
      connection: 'local',
      mirrors: new GitMirrors(path.join(work, 'broken'), () => fixture.baseDir),
      projects: () => ['org/missing', 'org/app'],
      intervalMs: 1000,
      onEvent: () => undefined,
      onError: (_err, project) => errors.push(project),
      clock: manualClock(),
    });
    await broken.pollNow();
    expect(errors).toEqual(['org/missing']);
  });

  it('stops a round after the project being polled; the next start polls the rest', async () => {
    await fixture.createProject('org/b', { README: 'b\n' });
    await fixture.createProject('org/c', { README: 'c\n' });
    const seen: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding = false;
    const options = {
      connection: 'local',
      mirrors: new GitMirrors(path.join(work, 'round'), () => fixture.baseDir),
      projects: () => ['org/app', 'org/b', 'org/c'],
      intervalMs: 1000,
      onEvent: async (event: GitTriggerEvent) => {
        seen.push(event.project);
        if (holding) {
          await held; // the round is in org/app's poll when the stop comes
        }
      },
      clock: manualClock(),
      state: new MemoryPollerState(), // what is stored, shared by both pollers (as the database is)
    };
    const first = new GitPoller(options);
    await first.start(); // baselines of the three projects
    for (const project of ['org/app', 'org/b', 'org/c']) {
      await fixture.pushChange(project, 1, 1, { parent: 'master', files: { d: '1\n' } });
    }
    holding = true;
    const round = first.pollNow();
    while (seen.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const stopped = first.stop();
    release();
    await stopped;
    await round;
    // Before, the stop waited for the whole round (every project's git fetch: seconds under load).
    expect(seen).toEqual(['org/app']);
    holding = false;
    const second = new GitPoller(options);
    await second.start();
    await second.pollNow();
    await second.stop();
    expect(seen).toEqual(['org/app', 'org/b', 'org/c']);
  });
});
