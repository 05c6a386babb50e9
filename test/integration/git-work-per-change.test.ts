/**
 * The git work of one gated change in one process (docs/operations.md#git-work-per-change): the
 * quickstart's gate (two builds), every git command the process starts counted by a wrapper on
 * PATH, from the enqueue until the change is merged and every build (the post pipeline's too)
 * ended. The change look-up and the speculative merge read one mirror, fetched once for the new
 * change; the builds and the gate merge take the speculative merge's commit
 * (docs/executor.md#reused-merges).
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  QUICKSTART_PROJECT,
  QUICKSTART_TENANT,
  startQuickstartApp,
  type QuickstartApp,
} from '../helpers/quickstart-app';

describe('git work of one gated change in one process', () => {
  let quickstart: QuickstartApp;
  let bin: string;
  let calls: string;
  const originalPath = process.env.PATH;

  beforeAll(async () => {
    bin = mkdtempSync(path.join(os.tmpdir(), 'sluice-git-work-'));
    calls = path.join(bin, 'calls.log');
    const real = (originalPath ?? '').split(':').find((dir) => dir !== '' && existsSync(path.join(dir, 'git')));
    mkdirSync(path.join(bin, 'bin'));
    writeFileSync(
      path.join(bin, 'bin', 'git'),
      `#!/bin/sh\necho "$PWD|$*" >> '${calls}'\nexec '${real ?? '/usr/bin'}/git' "$@"\n`,
    );
    chmodSync(path.join(bin, 'bin', 'git'), 0o755);
    process.env.PATH = `${path.join(bin, 'bin')}:${originalPath ?? ''}`;
    quickstart = await startQuickstartApp('sluice-git-work-');
  });

  afterAll(async () => {
    process.env.PATH = originalPath;
    await quickstart.stop();
    rmSync(bin, { recursive: true, force: true });
  });

  /** The build requests of the tenant, and those not ended. */
  async function requests(): Promise<{ all: number; open: number }> {
    const rows = await quickstart.database
      .knex('build_requests')
      .select('state')
      .count<Array<{ state: string; count: string | number }>>({ count: '*' })
      .groupBy('state');
    const count = (states: string[]) =>
      rows.filter((row) => states.includes(row.state)).reduce((sum, row) => sum + Number(row.count), 0);
    return { all: count(rows.map((row) => row.state)), open: count(['requested', 'running']) };
  }

  /** Gate change `number` and wait until its three builds (two gate jobs, the post job) ended. */
  async function gate(number: number): Promise<void> {
    const before = (await requests()).all;
    await quickstart.pushChange(number, { [`notes-${number}.md`]: `${number}\n` }, `Notes ${number}`);
    const from = quickstart.deltaCount();
    const response = await fetch(
      `${quickstart.url()}/api/tenant/${QUICKSTART_TENANT}/project/${QUICKSTART_PROJECT}/enqueue`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${quickstart.token()}` },
        body: JSON.stringify({ pipeline: 'gate', change: `${number},1` }),
      },
    );
    expect(response.status).toBeLessThan(300);
    const report = await quickstart.waitForReport('gate', from);
    expect(report).toMatchObject({ type: 'item-reported', result: 'SUCCESS' });
    for (;;) {
      const now = await requests();
      if (now.all >= before + 3 && now.open === 0) {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('fetches the new change once and merges it once', async () => {
    await gate(2); // the mirrors are cloned
    writeFileSync(calls, '');
    await gate(3);
    const dataDir = quickstart.config.dataDir;
    const commands = readFileSync(calls, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith(dataDir))
      .map((line) => {
        const [cwd, args] = line.split('|');
        return { cwd: path.relative(dataDir, cwd), command: args.replace(/^(-c \S+ )+/, '').split(' ')[0] };
      });
    const where = (command: string) => commands.filter((c) => c.command === command).map((c) => c.cwd.split('/')[0]);
    // The change look-up's fetch serves the speculative merge; the second brings the gate merge
    // back. The poller keeps mirrors of its own: it does not poll here (docs/operations.md#git-work-per-change).
    expect(where('fetch')).toEqual(['executor', 'executor']);
    // The change refs are listed once for the look-ups of the enqueue.
    const listings = readFileSync(calls, 'utf8')
      .split('\n')
      .filter((line) => line.includes('for-each-ref') && line.endsWith(' refs/changes/'));
    expect(listings).toHaveLength(1);
    // The mirror's branches and the change's ref are read once for its speculative merge and its
    // two builds (the same mirror state), once for the post build (after the gate merge's fetch).
    const snapshots = readFileSync(calls, 'utf8')
      .split('\n')
      .filter((line) => line.includes('for-each-ref --format=%(objecttype)'));
    expect(snapshots).toHaveLength(2);
    expect(existsSync(path.join(dataDir, 'engine', 'mirrors'))).toBe(false);
    // One merge, the speculative one: the two builds check its commit out, the gate merge pushes it.
    expect(where('merge')).toEqual(['executor']);
    expect(where('push')).toEqual(['executor']);
    // Clones: the speculative merge's, the two gate builds', the post build's; none for the gate merge.
    expect(commands.filter((c) => c.command === 'clone').map((c) => c.cwd.split('/').slice(0, 2).join('/'))).toEqual([
      'executor/scratch',
      'executor/builds',
      'executor/builds',
      'executor/builds',
    ]);
  });
});
