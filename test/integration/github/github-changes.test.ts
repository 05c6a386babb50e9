/**
 * More of the GitHub driver through the real server and the fake GitHub (docs/github.md): a new
 * push to a pull request removes its old item; `Depends-On` across two repositories gates both,
 * in order; a merge the API refuses fails the item with the API's words; branch protection
 * (`exclude-unprotected-branches`, `exclude-locked-branches`, required status contexts); rate
 * limits are waited out;
 * repositories are cloned over HTTPS with the installation token.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  appFiles,
  GITHUB_PIPELINES,
  lastStatus,
  startGitHubTenant,
  until,
  type GitHubTenant,
} from '../../helpers/github-tenant';
import { repoJson } from '../../helpers/fake-github/json';
import { FakeTimerClock } from '../../helpers/fake-timer-clock';

jest.setTimeout(240_000);

const TENANT = `
- tenant:
    name: acme
    source:
      github:
        config-projects:
          - org/config:
              load-branch: main
        untrusted-projects:
          - org/app:
              exclude-unprotected-branches: true
          - org/lib
          - org/locks:
              exclude-locked-branches: true
`;

describe('GitHub driver: patchsets, dependencies, refusals, protection, rate limits', () => {
  let env: GitHubTenant;
  let scratch: string;
  // The drivers' timers: a rate limit's wait passes when the test moves this clock on.
  const timers = new FakeTimerClock();

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'sluice-github-holds-'));
    env = await startGitHubTenant({
      repos: {
        'org/config': { 'zuul.yaml': GITHUB_PIPELINES },
        'org/app': appFiles('merge', 'integrated'),
        'org/lib': appFiles('merge', 'integrated'),
        'org/locks': { 'README.md': 'locks\n' },
      },
      tenantFile: TENANT,
      timers,
      prepare: (hub) => {
        // org/app: main is protected and needs the gate's status; wip is not protected.
        hub.repo('org/app').protected.set('main', { requiredContexts: ['acme/gate'] });
        execFileSync('git', ['branch', 'wip', 'main'], { cwd: hub.repo('org/app').dir });
        // org/locks: frozen is protected and locked (read-only), release protected, topic neither.
        for (const branch of ['frozen', 'release', 'topic']) {
          execFileSync('git', ['branch', branch, 'main'], { cwd: hub.repo('org/locks').dir });
        }
        hub.repo('org/locks').protected.set('frozen', { requiredContexts: [], locked: true });
        hub.repo('org/locks').protected.set('release', { requiredContexts: [] });
      },
    });
  });

  afterAll(async () => {
    await env?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  const status = (repo: string, sha: string, context: string) => lastStatus(env.hub, repo, sha, context);
  const approveAndLabel = async (repo: string, number: number) => {
    await env.hub.review(repo, number, 'reviewer', 'APPROVED');
    await env.hub.label(repo, number, 'gate');
  };

  it('ignores pull requests to unprotected branches of a project that excludes them', async () => {
    const { hub, server } = env;
    await hub.openPull('org/app', { title: 'On wip', files: { 'wip.txt': 'x\n' }, base: 'wip' });
    const delivery = hub.deliveries.at(-1);
    await server.app.roles?.connectionEvents.idle();
    const stored = await server.database.knex('connection_events').where({ delivery: delivery?.id }).first();
    expect(stored.outcome).toBe('submitted 0; acme: wip is not protected');
    // Only main was loaded for the tenant.
    const layout = server.app.layoutManager?.layout('acme');
    expect(layout?.projects.get(`${new URL(hub.url).host}/org/app`)?.branches).toEqual(['main']);
  });

  it('leaves locked branches out of a project that excludes them, and follows locks as they change', async () => {
    const { hub, server } = env;
    const manager = server.app.layoutManager;
    const locks = `${new URL(hub.url).host}/org/locks`;
    const branches = () => manager?.layout('acme')?.projects.get(locks)?.branches;
    expect(branches()).toEqual(['main', 'release', 'topic']);
    // A poll with nothing changed reloads nothing (org/app's unprotected wip and the locked frozen included).
    const before = manager?.layout('acme')?.uuid;
    await manager?.pollOnce();
    expect(manager?.layout('acme')?.uuid).toBe(before);
    // release is locked, frozen unlocked: the next poll reloads the tenant with the branches swapped.
    hub.repo('org/locks').protected.set('release', { requiredContexts: [], locked: true });
    hub.repo('org/locks').protected.set('frozen', { requiredContexts: [] });
    await manager?.pollOnce();
    expect(manager?.layout('acme')?.uuid).not.toBe(before);
    expect(branches()).toEqual(['main', 'frozen', 'topic']);
  });

  it('reloads the tenant when GitHub says a branch protection rule changed, without waiting for a poll', async () => {
    const { hub, server } = env;
    const manager = server.app.layoutManager;
    const app = `${new URL(hub.url).host}/org/app`;
    const branches = () => manager?.layout('acme')?.projects.get(app)?.branches;
    expect(branches()).toEqual(['main']);
    hub.repo('org/app').protected.set('wip', { requiredContexts: [] });
    const delivery = await hub.send('branch_protection_rule', {
      action: 'created',
      rule: { id: 7, name: 'wip' },
      repository: repoJson(hub.url, hub.repo('org/app')),
      sender: { login: 'admin' },
    });
    expect(delivery.status).toBe(200);
    await server.app.roles?.connectionEvents.idle();
    const stored = await server.database.knex('connection_events').where({ delivery: delivery.id }).first();
    expect(stored.outcome).toBe('reloading acme');
    // The reload runs after the delivery's commit; the configuration poll (every 60 s) is not what brings wip in.
    await until('wip loaded', () => (branches()?.includes('wip') ? true : undefined), 30_000);
    expect(branches()).toEqual(['main', 'wip']);
    hub.repo('org/app').protected.delete('wip');
    await hub.send('branch_protection_rule', {
      action: 'deleted',
      rule: { id: 7, name: 'wip' },
      repository: repoJson(hub.url, hub.repo('org/app')),
      sender: { login: 'admin' },
    });
    await until('wip dropped', () => (branches()?.includes('wip') ? undefined : true), 30_000);
  });

  it('removes the old item when a new commit is pushed to the pull request', async () => {
    const { hub } = env;
    const hold = path.join(scratch, 'hold-app');
    writeFileSync(hold, '');
    const pull = await hub.openPull('org/app', { title: 'Slow', files: { HOLD: hold } });
    const first = pull.headSha;
    await until('the first patchset started', () => status('org/app', first, 'acme/check')?.state === 'pending');
    const second = await hub.pushToPull('org/app', pull.number, { 'more.txt': 'y\n' });
    const cancelled = await until('the first patchset dequeued', () =>
      hub.repo('org/app').checkRuns.find((r) => r.headSha === first && r.status === 'completed'),
    );
    expect(cancelled.conclusion).toBe('cancelled');
    rmSync(hold);
    await until('the second patchset reported', () => status('org/app', second, 'acme/check')?.state === 'success');
    expect(status('org/app', first, 'acme/check')?.state).toBe('pending');
  });

  it('gates pull requests of two repositories joined by Depends-On, in order', async () => {
    const { hub } = env;
    const lib = await hub.openPull('org/lib', { title: 'Library part', files: { 'lib.txt': 'lib\n' } });
    const app = await hub.openPull('org/app', {
      title: 'Application part',
      body: `Uses the library.\n\nDepends-On: ${hub.url}/org/lib/pull/${lib.number}`,
      files: { 'app.txt': 'app\n' },
    });
    // The application's pull request waits for its dependency's approval.
    await approveAndLabel('org/app', app.number);
    await env.server.app.roles?.connectionEvents.idle();
    await approveAndLabel('org/lib', lib.number);
    await until('both merged', () => lib.merged && app.merged);
    const merges = hub.requests.filter((r) => r.method === 'PUT' && r.path.endsWith('/merge') && r.status === 200);
    expect(merges.map((r) => r.path)).toEqual([
      `/repos/org/lib/pulls/${lib.number}/merge`,
      `/repos/org/app/pulls/${app.number}/merge`,
    ]);
    // main of org/app requires acme/gate: the status was set before the merge.
    expect(status('org/app', app.headSha, 'acme/gate')?.state).toBe('success');
  });

  it('fails the item with the reason the API gives for refusing a merge', async () => {
    const { hub } = env;
    const pull = await hub.openPull('org/lib', { title: 'Refused', files: { 'refused.txt': 'no\n' } });
    pull.refuseMerge = 'At least 1 approving review is required by reviewers with write access.';
    await approveAndLabel('org/lib', pull.number);
    await until('gate failure', () => status('org/lib', pull.headSha, 'acme/gate')?.state === 'failure');
    const comment = await until('the failure comment', () => pull.comments.find((c) => c.body.includes('not merged')));
    expect(comment.body).toContain(
      'This change was not merged by the code review system: At least 1 approving review is required by reviewers with write access.',
    );
    expect(pull.merged).toBe(false);
  });

  it.each([
    ['retry-after', 1],
    ['reset', 2],
  ] as const)('waits out a rate limit (%s) and carries on', async (mode, seconds) => {
    const { hub } = env;
    const since = hub.requests.length;
    // The rate limit's waits on the drivers' timers are no longer than the limit and the extra
    // second after a reset; no call is made again before the test moves the clock on past its wait.
    const upTo = (seconds + 2) * 1000;
    expect(timers.pending.filter((ms) => ms > 0 && ms <= upTo)).toEqual([]);
    hub.rateLimit(2, mode, seconds);
    const pull = await hub.openPull('org/lib', { title: `Limited ${mode}`, files: { [`${mode}.txt`]: 'z\n' } });
    // Each move of the clock, with the waits it ended and how many calls were made by then.
    const moves: Array<{ waits: number[]; sent: number }> = [];
    await timers.movingOn(
      'check success',
      () => status('org/lib', pull.headSha, 'acme/check')?.state === 'success',
      upTo,
      (waits) => moves.push({ waits, sent: hub.requests.length }),
    );
    const limited = hub.requests.slice(since).filter((r) => r.status === 429 || r.status === 403);
    expect(limited).toHaveLength(2);
    // Each refused call was made again only after the clock moved on past a wait as long as the
    // limit (calls made meanwhile wait what is left of it), until it went through.
    for (const refused of limited) {
      const at = hub.requests.indexOf(refused);
      const same = hub.requests.filter((r, i) => i > at && r.method === refused.method && r.path === refused.path);
      const again = hub.requests.indexOf(same[0]);
      const waited = moves.filter((move) => move.sent > at && move.sent <= again).flatMap((move) => move.waits);
      expect(Math.max(...waited)).toBeGreaterThanOrEqual(seconds * 1000 - 50);
      expect(same.at(-1)?.status).toBeLessThan(400);
    }
  });

  it('clones repositories over HTTPS with the installation token', () => {
    const access = env.hub.gitAccess;
    expect(access.some((a) => a.path.startsWith('/org/app/'))).toBe(true);
    expect(access.some((a) => a.path.startsWith('/org/config/'))).toBe(true);
    // Only installation tokens (no personal token exists in this fake).
    expect(access.every((a) => a.installationId === 1)).toBe(true);
  });
});
