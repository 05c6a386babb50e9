/**
 * What happens to Gerrit changes already in the pipelines, and how they depend on each other,
 * through the real server and the fake Gerrit (docs/gerrit.md): `Workflow +1` with
 * `Code-Review +2` enters `gate`; a new patch set replaces the item in `check` and `gate`;
 * `Workflow` taken back dequeues it (the requirement re-checked); `change-abandoned` dequeues it;
 * a change built on another one's patch set (a git parent) gates behind it and is submitted
 * after it; `max_dependencies` drops the event of a change needing too many, counted through git
 * parents, `Depends-On:` Change-Ids and `Depends-On:` URLs.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { until } from '../../helpers/github-tenant';
import {
  itemsIn,
  lastVote,
  startGerritGateTenant,
  WORKFLOW_PIPELINES,
  type GerritTenant,
} from '../../helpers/gerrit-tenant';
import type { FakeChange } from '../../helpers/fake-gerrit/server';

jest.setTimeout(300_000);

describe('Gerrit changes in the pipelines', () => {
  let env: GerritTenant;
  let scratch: string;

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'sluice-gerrit-holds-'));
    env = await startGerritGateTenant({ pipelines: WORKFLOW_PIPELINES, connection: { max_dependencies: 2 } });
  });

  // A test that fails must not leave jobs of the next ones waiting behind held ones.
  afterEach(() => {
    for (const file of readdirSync(scratch)) {
      rmSync(path.join(scratch, file));
    }
  });

  afterAll(async () => {
    await env?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** A file whose existence keeps the `unit` jobs of changes holding it running. */
  const hold = (name: string) => {
    const file = path.join(scratch, name);
    writeFileSync(file, '');
    return file;
  };
  const inPipeline = async (pipeline: string, id: string) => (await itemsIn(env.server, pipeline)).includes(id);
  const eventually = async (what: string, probe: () => Promise<boolean>) => {
    const deadline = Date.now() + 120_000;
    while (!(await probe())) {
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for ${what}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  /** The stored stream event of a change's patch set, once processed: its outcome. */
  const outcomeOf = async (type: string, change: FakeChange, patchset = 1) => {
    const rows: Array<{ payload: unknown; outcome: string | null }> = await env.server.database
      .knex('connection_events')
      .where({ connection: 'gerrit', event_type: type })
      .whereNotNull('processed_at')
      .select('payload', 'outcome');
    const payloads = rows.map((row) => ({
      ...row,
      event: (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as {
        change?: { number?: number };
        patchSet?: { number?: number };
        author?: { username?: string };
      },
    }));
    return payloads.find(
      (row) =>
        row.event.change?.number === change.number &&
        row.event.patchSet?.number === patchset &&
        (type !== 'comment-added' || row.event.author?.username === 'core'),
    )?.outcome;
  };
  /** The engine's outcome of core's approval of a change, once judged. */
  const approvalOutcome = async (change: FakeChange) => {
    const rows: Array<{ payload: { change?: number; account?: string }; outcome: string }> = await env.server.database
      .knex('engine_events')
      .where({ event_type: 'comment-added' })
      .whereNotNull('processed')
      .select('payload', 'outcome');
    return rows.find((row) => row.payload.change === change.number && row.payload.account === 'core')?.outcome;
  };
  const approve = (change: FakeChange) => env.gerrit.review(change.number, 'core', { 'Code-Review': 2, Workflow: 1 });

  it('asks Gerrit about an event before its transaction: the row is not locked while Gerrit answers', async () => {
    const { gerrit } = env;
    const release = gerrit.holdChangeRequests();
    try {
      const change = await gerrit.upload('org/app', { subject: 'Slow Gerrit', files: { 's.txt': 's\n' } });
      // First in the file: no other change's event or item asks Gerrit meanwhile (the intake takes
      // events one at a time, so an earlier event held here would keep this one waiting).
      await eventually('the intake asking Gerrit', async () =>
        gerrit.heldPaths.some((held) => held.startsWith(`/a/changes/org/app~${change.number}`)),
      );
      // Another transaction locks the pending row at once (NOWAIT fails on a locked row; on PGlite,
      // whose one connection a transaction holds, it would not answer before Gerrit does).
      const lockedAtOnce = env.server.database.knex.transaction(async (trx) =>
        trx('connection_events')
          .where({ connection: 'gerrit', event_type: 'patchset-created' })
          .whereNull('processed_at')
          .forUpdate()
          .noWait()
          .select('id'),
      );
      const tooLate = new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), 10_000));
      expect(await Promise.race([lockedAtOnce, tooLate])).toHaveLength(1);
      release();
      await until('the change checked', () => lastVote(change, 'Verified') === 1);
    } finally {
      release();
    }
  });

  it('enters gate on Workflow +1 and replaces the item in check and gate with a new patch set', async () => {
    const { gerrit } = env;
    const held = hold('first');
    const change = await gerrit.upload('org/app', { subject: 'Slow', files: { HOLD: held } });
    const id = `${change.number},1`;
    await eventually('check', () => inPipeline('check', id));
    approve(change);
    await eventually('gate', () => inPipeline('gate', id));
    await gerrit.upload('org/app', { subject: 'Slow', change: change.number, files: { 'v2.txt': '2\n' } });
    await eventually('the new patch set checked', async () => lastVote(change, 'Verified', '2') === 1);
    expect(await itemsIn(env.server, 'check')).not.toContain(id);
    expect(await itemsIn(env.server, 'gate')).not.toContain(id);
    // The old patch set was never reported on, nor submitted.
    expect(lastVote(change, 'Verified', '1')).toBeUndefined();
    expect(change.status).toBe('NEW');
  });

  it('dequeues a gate item whose Workflow vote is taken back, and one whose change is abandoned', async () => {
    const { gerrit } = env;
    const held = hold('second');
    const taken = await gerrit.upload('org/app', { subject: 'Taken back', files: { HOLD: held } });
    const abandoned = await gerrit.upload('org/app', { subject: 'Abandoned', files: { HOLD: held, 'b.txt': 'b\n' } });
    approve(taken);
    approve(abandoned);
    await eventually('both in gate', async () => (await itemsIn(env.server, 'gate')).length === 2);
    gerrit.review(taken.number, 'core', { Workflow: 0 });
    await until('the requirement failure reported', () => lastVote(taken, 'Verified') === -2);
    expect(taken.reviews.at(-1)?.message).toMatch(/Workflow/);
    gerrit.abandon(abandoned.number);
    await eventually('the abandoned change dequeued', async () => (await itemsIn(env.server, 'gate')).length === 0);
    expect(await itemsIn(env.server, 'check')).not.toContain(`${abandoned.number},1`);
    expect([taken.status, abandoned.status]).toEqual(['NEW', 'ABANDONED']);
    expect(gerrit.submitted).toEqual([]);
  });

  it('gates a change behind the change its patch set is built on, and submits it after it', async () => {
    const { gerrit } = env;
    const held = hold('third');
    const parent = await gerrit.upload('org/app', { subject: 'Parent', files: { HOLD: held, 'p.txt': 'p\n' } });
    const child = await gerrit.upload('org/app', {
      subject: 'Child',
      files: { 'c.txt': 'c\n' },
      parent: parent.number,
    });
    // Approved alone, the child does not enter gate: the change it needs is not approved.
    approve(child);
    const judged = () => approvalOutcome(child);
    await eventually('the child approval judged', async () => (await judged()) !== undefined);
    expect(await judged()).toMatch(/^entered 0/);
    expect(await itemsIn(env.server, 'gate')).toEqual([]);
    approve(parent);
    const ids = [`${parent.number},1`, `${child.number},1`];
    await eventually('both in gate', async () => (await itemsIn(env.server, 'gate')).length === 2);
    expect(await itemsIn(env.server, 'gate')).toEqual(ids);
    rmSync(held);
    await until('both submitted', () => parent.status === 'MERGED' && child.status === 'MERGED');
    expect(gerrit.submitted.slice(-2)).toEqual(ids);
  });

  it('gates changes behind the one their Depends-On: URL of an older shape names (#/c/N, /N)', async () => {
    const { gerrit } = env;
    const needed = await gerrit.upload('org/app', { subject: 'Needed', files: { 'n.txt': 'n\n' } });
    const byHash = await gerrit.upload('org/app', {
      subject: 'By the old UI URL',
      files: { 'h.txt': 'h\n' },
      footer: `Depends-On: ${gerrit.url}/#/c/${needed.number}`,
    });
    const byNumber = await gerrit.upload('org/app', {
      subject: 'By the short URL',
      files: { 's2.txt': 's\n' },
      footer: `Depends-On: ${gerrit.url}/${needed.number}/`,
    });
    await until('the three checked', () => [needed, byHash, byNumber].every((c) => lastVote(c, 'Verified') === 1));
    // Approved alone, neither enters gate: the change they need is not approved.
    approve(byHash);
    approve(byNumber);
    await eventually(
      'both approvals judged',
      async () => (await approvalOutcome(byHash)) !== undefined && (await approvalOutcome(byNumber)) !== undefined,
    );
    expect([await approvalOutcome(byHash), await approvalOutcome(byNumber)]).toEqual([
      expect.stringMatching(/^entered 0/),
      expect.stringMatching(/^entered 0/),
    ]);
    expect(await itemsIn(env.server, 'gate')).toEqual([]);
    approve(needed);
    await until('all three submitted', () => [needed, byHash, byNumber].every((c) => c.status === 'MERGED'));
    expect(gerrit.submitted.slice(-3)[0]).toBe(`${needed.number},1`);
  });

  it('drops the event of a change needing more than max_dependencies (git parents, Change-Ids, URLs)', async () => {
    const { gerrit } = env;
    const first = await gerrit.upload('org/app', { subject: 'M1', files: { 'm1.txt': '1\n' } });
    const second = await gerrit.upload('org/app', { subject: 'M2', files: { 'm2.txt': '2\n' }, parent: first.number });
    const third = await gerrit.upload('org/app', {
      subject: 'M3',
      files: { 'm3.txt': '3\n' },
      footer: `Depends-On: ${second.changeId}`,
    });
    const fourth = await gerrit.upload('org/app', {
      subject: 'M4',
      files: { 'm4.txt': '4\n' },
      footer: `Depends-On: ${gerrit.url}/c/org/app/+/${third.number}`,
    });
    await eventually(
      'the fourth upload judged',
      async () => (await outcomeOf('patchset-created', fourth)) !== undefined,
    );
    // The third needs two (the second by Change-Id, the first as the second's git parent): within the limit.
    expect(await outcomeOf('patchset-created', third)).toBe('submitted 1');
    expect(await outcomeOf('patchset-created', fourth)).toBe(
      `dropped: change ${fourth.number},1 has too many dependencies (more than max_dependencies 2)`,
    );
    // The third is checked with the changes it needs ahead of it; the fourth never is.
    await until('the third checked', () => lastVote(third, 'Verified') === 1);
    expect(lastVote(fourth, 'Verified')).toBeUndefined();
  });
});
