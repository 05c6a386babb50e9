/**
 * What reading pull requests costs (docs/github.md#reads-and-their-cost), counted on the fake
 * GitHub: a second read of an unchanged pull request is all `304 Not Modified`, permissions are
 * asked once per reviewer within their TTL, `Depends-On` children cost the list and the child's
 * reads only, and a change on GitHub (a review, a push, a label) is seen by the next read.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ownedChange } from '../../../src/drivers/depends-on';
import { GitHubChangeSource, pullRequestOfUrl } from '../../../src/drivers/github/change-source';
import { GitHubConnection } from '../../../src/drivers/github/connection';
import type { RequestCount } from '../../helpers/fake-github/conditional';
import { FakeGitHub } from '../../helpers/fake-github/server';

const REPO = 'org/reads';

describe('GitHub reads', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const hub = new FakeGitHub({ appId: 11, appPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
  const keyDir = mkdtempSync(path.join(os.tmpdir(), 'github-reads-'));
  const keyFile = path.join(keyDir, 'app.pem');
  let clock = Date.now();

  beforeAll(async () => {
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs1', format: 'pem' }));
    await hub.start();
    await hub.createRepo(REPO, { 'README.md': 'x\n' });
    hub.repo(REPO).permissions.set('maintainer', 'admin');
  });

  afterAll(async () => {
    await hub.stop();
    rmSync(keyDir, { recursive: true, force: true });
  });

  /** A fresh connection (empty caches) and its change source, its installation token already fetched. */
  const newSource = async () => {
    const connection = new GitHubConnection(
      'github',
      {
        server: hub.url,
        canonicalHostname: 'fake',
        appId: 11,
        appKeyFile: keyFile,
        webhookToken: 's',
        requestTimeout: 10,
        rateLimitMaxWait: 60,
      },
      { now: () => new Date(clock), permissionTtlMs: 60_000 },
    );
    await connection.client.tokenFor(REPO);
    const source = new GitHubChangeSource(
      new Map([['github', connection]]),
      {
        locate: (project) =>
          project.startsWith('fake/') ? { connection: 'github', name: project.slice(5), defaultBranch: 'main' } : null,
        canonicalName: (_connection, name) => `fake/${name}`,
      },
      (url) => ownedChange(new URL(url), hub.url, 'fake', pullRequestOfUrl),
    );
    return { connection, source };
  };

  /** The requests a step makes, by kind, and their totals. */
  const costOf = async (step: () => Promise<unknown>) => {
    const since = hub.requests.length;
    await step();
    const kinds = hub.requestCounts(since);
    const total = (key: keyof RequestCount) => [...kinds.values()].reduce((sum, c) => sum + c[key], 0);
    return { kinds, full: total('full'), notModified: total('notModified') };
  };

  const approve = (number: number, user: string) =>
    hub.pull(REPO, number).reviews.push({
      id: hub.id(),
      user,
      state: 'APPROVED',
      commitId: hub.pull(REPO, number).headSha,
      submittedAt: new Date().toISOString(),
      body: '',
    });

  it('answers a second read of an unchanged pull request with 304s only, and sees a new review and push', async () => {
    const pull = await hub.openPull(REPO, { title: 'One', files: { 'a.txt': 'a\n' } });
    approve(pull.number, 'maintainer');
    const { source } = await newSource();

    const first = await costOf(() => source.getChange(`fake/${REPO}`, pull.number));
    expect(first.full).toBe(5); // the pull request, its reviews, status, check runs, one permission
    expect(first.notModified).toBe(0);

    let change = await source.getChange(`fake/${REPO}`, pull.number);
    const second = await costOf(async () => {
      change = await source.getChange(`fake/${REPO}`, pull.number);
    });
    expect(second.full).toBe(0);
    expect(second.notModified).toBe(4); // the permission is not asked again within its TTL
    expect(second.kinds.has('GET /collaborators/:user/permission')).toBe(false);
    expect(change?.review?.reviews).toEqual([expect.objectContaining({ username: 'maintainer', permission: 'admin' })]);

    // A new review: only the reviews are read in full (and the new reviewer's permission).
    approve(pull.number, 'outsider');
    const afterReview = await costOf(async () => {
      change = await source.getChange(`fake/${REPO}`, pull.number);
    });
    expect(afterReview.kinds.get('GET /pulls/:n/reviews')).toEqual({ full: 1, notModified: 0 });
    expect(afterReview.kinds.get('GET /collaborators/:user/permission')).toEqual({ full: 1, notModified: 0 });
    expect(afterReview.full).toBe(2);
    expect(change?.review?.reviews.map((r) => `${r.username}:${r.permission}`)).toEqual([
      'maintainer:admin',
      'outsider:read',
    ]);

    // A push: the pull request changes and the new commit's statuses are new addresses.
    const newSha = await hub.pushToPull(REPO, pull.number, { 'a.txt': 'b\n' });
    const afterPush = await costOf(async () => {
      change = await source.getChange(`fake/${REPO}`, pull.number);
    });
    expect(afterPush.kinds.get('GET /pulls/:n')).toEqual({ full: 1, notModified: 0 });
    expect(afterPush.kinds.get('GET /commits/:sha/status')).toEqual({ full: 1, notModified: 0 });
    expect(afterPush.kinds.get('GET /commits/:sha/check-runs')).toEqual({ full: 1, notModified: 0 });
    expect(change?.patchset).toBe(newSha);

    // A label (the pull request's answer changes) and a status on the head commit are seen at once.
    pull.labels.push('gate');
    hub
      .repo(REPO)
      .statuses.set(newSha, [
        { id: hub.id(), state: 'success', context: 'ci', description: null, targetUrl: null, creator: 'bot' },
      ]);
    change = await source.getChange(`fake/${REPO}`, pull.number);
    expect(change?.review?.labels).toEqual(['gate']);
    expect(change?.review?.statuses).toEqual(['bot:ci:success']);
  });

  it('asks for a permission again once its TTL is over, and sees the new one', async () => {
    const pull = await hub.openPull(REPO, { title: 'Perm', files: { 'p.txt': 'p\n' } });
    approve(pull.number, 'promoted');
    const { source } = await newSource();
    const permissionOf = async () =>
      (await source.getChange(`fake/${REPO}`, pull.number))?.review?.reviews.find((r) => r.username === 'promoted')
        ?.permission;
    expect(await permissionOf()).toBe('read');
    hub.repo(REPO).permissions.set('promoted', 'write');
    const within = await costOf(permissionOf);
    expect(within.kinds.has('GET /collaborators/:user/permission')).toBe(false);
    expect(await permissionOf()).toBe('read'); // believed for the TTL (documented)
    clock += 60_001;
    const after = await costOf(async () => expect(await permissionOf()).toBe('write'));
    expect(after.kinds.get('GET /collaborators/:user/permission')).toEqual({ full: 1, notModified: 0 });
  });

  it('reads only the Depends-On child among many open pull requests, and nothing in full the second time', async () => {
    const parent = await hub.openPull(REPO, { title: 'Parent', files: { 'parent.txt': 'p\n' } });
    const others = [];
    for (let i = 0; i < 6; i += 1) {
      others.push(await hub.openPull(REPO, { title: `Other ${i}`, files: { [`o${i}.txt`]: `${i}\n` } }));
    }
    const child = await hub.openPull(REPO, {
      title: 'Child',
      body: `Needs the parent.\n\nDepends-On: ${hub.url}/${REPO}/pull/${parent.number}`,
      files: { 'child.txt': 'c\n' },
    });
    const { source } = await newSource();
    const parentChange = await source.getChange(`fake/${REPO}`, parent.number);
    if (!parentChange) {
      throw new Error('the parent pull request was not read');
    }
    let children: Array<{ number: number | null }> = [];
    const first = await costOf(async () => {
      children = await source.changesDependingOn(parentChange, [`fake/${REPO}`]);
    });
    expect(children.map((c) => c.number)).toEqual([child.number]);
    // The list once, then the child's reviews, status and check runs: no read of the others.
    expect(first.full).toBe(4);
    expect(first.kinds.get('GET /pulls')).toEqual({ full: 1, notModified: 0 });
    expect(first.kinds.has('GET /pulls/:n')).toBe(false);

    const second = await costOf(() => source.changesDependingOn(parentChange, [`fake/${REPO}`]));
    expect(second.full).toBe(0);
    expect(second.notModified).toBe(4);
    expect(others).toHaveLength(6);
  });

  it('lists open pull requests once and reads the review state of each, 304s the second time', async () => {
    const { source } = await newSource();
    const open = [...hub.repo(REPO).pulls.values()].filter((p) => p.state === 'open');
    const first = await costOf(() => source.openChanges(`fake/${REPO}`));
    expect(first.kinds.get('GET /pulls')).toEqual({ full: 1, notModified: 0 });
    expect(first.kinds.has('GET /pulls/:n')).toBe(false);
    expect(first.kinds.get('GET /pulls/:n/reviews')).toEqual({ full: open.length, notModified: 0 });

    let changes = await source.openChanges(`fake/${REPO}`);
    const second = await costOf(async () => {
      changes = await source.openChanges(`fake/${REPO}`);
    });
    expect(second.full).toBe(0);
    expect(second.notModified).toBe(1 + 3 * open.length);
    expect(changes.map((c) => c.number)).toEqual(open.map((p) => p.number));
    expect(changes.every((c) => c.merged === false)).toBe(true);

    // One pull request closed: the list changes and says so at the next read.
    open[0].state = 'closed';
    changes = await source.openChanges(`fake/${REPO}`);
    expect(changes.map((c) => c.number)).toEqual(open.slice(1).map((p) => p.number));
  });
});
