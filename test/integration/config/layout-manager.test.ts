/**
 * LayoutManager against real git repositories and the store: initial load, atomic swaps,
 * persisted config errors and system events, reconfigure requests (smart ones too) and
 * config-change polling.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LayoutManager } from '../../../src/config/layout-manager';
import { FakeTimerClock } from '../../helpers/fake-timer-clock';
import { silentLogger } from '../../../src/server/logger';
import { git } from '../../../src/sources/git-cli';
import { ConfigErrorRepository } from '../../../src/store/repositories/config-errors';
import { ReconfigureRequestRepository } from '../../../src/store/repositories/reconfigure-requests';
import { SystemEventRepository } from '../../../src/store/repositories/system-events';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { buildFixtureRepos, type FixtureRepos } from '../../helpers/config-fixtures';

const FIXTURE = path.join(__dirname, '../../fixtures/config/basic');

let db: TestDatabase;
let repos: FixtureRepos;
let dir: string;
let manager: LayoutManager;
const timers = new FakeTimerClock();
let clock = new Date('2026-01-01T00:00:00Z');
let counter = 0;

async function pushFile(project: string, file: string, text: string): Promise<void> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'sluice-push-'));
  try {
    await git(work, ['clone', '--quiet', path.join(repos.baseDir, `${project}.git`), '.']);
    writeFileSync(path.join(work, file), text);
    await git(work, ['add', '--all']);
    await git(work, ['commit', '--quiet', '-m', `update ${file}`]);
    await git(work, ['push', '--quiet', 'origin', 'HEAD:master']);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  repos = await buildFixtureRepos(FIXTURE);
  dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-lm-'));
  copyFileSync(path.join(FIXTURE, 'main.yaml'), path.join(dir, 'main.yaml'));
  manager = new LayoutManager({
    config: {
      connections: {
        gerrit: { driver: 'git', baseurl: repos.baseDir, pollInterval: 5, canonicalHostname: 'review.example.com' },
      },
      dataDir: dir,
      tenantConfig: path.join(dir, 'main.yaml'),
    },
    knex: db.knex,
    logger: silentLogger(),
    now: () => clock,
    uuid: () => `layout-${++counter}`,
    clock: timers,
  });
  await manager.start();
});

afterAll(async () => {
  await manager.stop();
  await db.destroy();
  repos.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe('LayoutManager', () => {
  it('loads every tenant on start and schedules a poll', () => {
    expect(manager.tenantNames()).toEqual(['tenant-one']);
    expect(manager.layout('tenant-one')?.uuid).toBe('layout-1');
    expect(manager.layout('nope')).toBeUndefined();
    expect(timers.pending).toEqual([5000]);
  });

  it('persists config errors and records system events', async () => {
    const errors = new ConfigErrorRepository(db.knex);
    const list = await errors.list('tenant-one', { limit: 50, offset: 0 });
    expect(list.map((e) => [e.project, e.branch, e.path, e.line, e.severity, e.name, e.shortError])).toEqual([
      ['org/project2', 'master', 'zuul.yaml', 3, 'error', 'Job Not Found', 'Job does-not-exist not defined'],
    ]);
    expect(await errors.count('tenant-one', { severity: 'warning' })).toBe(0);
    expect(await errors.list('tenant-one', { project: 'org/project1', limit: 50, offset: 0 })).toEqual([]);
    const events = await new SystemEventRepository(db.knex).list('tenant-one', { limit: 10, offset: 0 });
    expect(events.map((e) => e.eventType)).toEqual(['config-errors-changed', 'reconfigured']);
    expect(events[1].data).toEqual({ layout_uuid: 'layout-1', errors: 1, warnings: 0 });
  });

  it('swaps layouts atomically: readers keep the old layout until the new one is complete', async () => {
    const before = manager.layout('tenant-one');
    const pending = manager.reconfigure();
    expect(manager.layout('tenant-one')).toBe(before);
    await pending;
    expect(manager.layout('tenant-one')?.uuid).toBe('layout-2');
    const events = await new SystemEventRepository(db.knex).list('tenant-one', { limit: 10, offset: 0 });
    expect(events.map((e) => e.eventType)).toEqual(['reconfigured', 'config-errors-changed', 'reconfigured']);
  });

  it('picks up reconfigure requests written by `sluice reconfigure`', async () => {
    const requests = new ReconfigureRequestRepository(db.knex);
    await requests.request('tenant-one', clock);
    await manager.pollOnce();
    expect(manager.layout('tenant-one')?.uuid).toBe('layout-3');
    expect(await requests.claimPending(clock)).toEqual([]);
  });

  it('does not reload when a branch moves without configuration changes', async () => {
    await pushFile('org/project1', 'README.md', 'docs only\n');
    await manager.pollOnce();
    expect(manager.layout('tenant-one')?.uuid).toBe('layout-3');
  });

  it('reloads a tenant when a configuration file changes and updates its errors', async () => {
    clock = new Date('2026-01-01T01:00:00Z');
    await pushFile(
      'org/project2',
      'zuul.yaml',
      '- job:\n    name: fixed\n    run: x.sh\n\n- project:\n    check:\n      jobs: [fixed]\n',
    );
    await manager.pollOnce();
    const layout = manager.layout('tenant-one');
    expect(layout?.uuid).toBe('layout-4');
    expect(layout?.errors).toEqual([]);
    expect(layout?.jobs.has('fixed')).toBe(true);
    expect(await new ConfigErrorRepository(db.knex).count('tenant-one')).toBe(0);
    const events = await new SystemEventRepository(db.knex).list('tenant-one', {
      types: ['config-errors-changed'],
      limit: 10,
      offset: 0,
    });
    expect(events.map((e) => e.eventTime.toISOString())).toEqual([
      '2026-01-01T01:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
    ]);
  });

  it('notifies layout listeners', async () => {
    const seen: string[] = [];
    const unsubscribe = manager.onLayout((l) => seen.push(l.uuid));
    await manager.reconfigure(['tenant-one']);
    unsubscribe();
    await manager.reconfigure(['tenant-one']);
    expect(seen).toEqual(['layout-5']);
  });

  it('a smart reconfiguration reloads the tenants whose entry changed, loads new ones, drops removed ones', async () => {
    const main = path.join(dir, 'main.yaml');
    const original = readFileSync(main, 'utf8');
    const one = manager.layout('tenant-one')?.uuid;
    // tenant-two is new and comes first: tenant-one's entry moves down the file but does not change.
    const two =
      '- tenant:\n    name: tenant-two\n    source:\n      gerrit:\n        untrusted-projects: [org/project1]\n';
    writeFileSync(main, `${two}${original}`);
    const requests = new ReconfigureRequestRepository(db.knex);
    await requests.request(undefined, clock, true);
    await manager.pollOnce();
    expect(await requests.claimPending(clock)).toEqual([]);
    expect(manager.tenantNames().sort()).toEqual(['tenant-one', 'tenant-two']);
    expect(manager.layout('tenant-one')?.uuid).toBe(one);
    // tenant-one changes, tenant-two is removed.
    writeFileSync(main, original.replace('    name: tenant-one\n', '    name: tenant-one\n    max-job-timeout: 600\n'));
    const outcome = await manager.reconfigure(undefined, { smart: true });
    expect(outcome.tenants).toEqual(['tenant-one']);
    expect(manager.tenantNames()).toEqual(['tenant-one']);
    expect(manager.layout('tenant-one')?.uuid).not.toBe(one);
    expect(manager.layout('tenant-one')?.tenant.maxJobTimeout).toBe(600);
    // Nothing changed: nothing is reloaded.
    expect((await manager.reconfigure(undefined, { smart: true })).tenants).toEqual([]);
  });

  it('stops polling on stop()', async () => {
    await manager.stop();
    expect(timers.pending).toEqual([]);
  });
});
