/**
 * Takeovers under repeated kills (docs/operations.md#takeovers-under-repeated-kills): the slow
 * calls (change look-ups, speculative merges) are made outside the passes, so a takeover pass
 * commits at once and the merges follow as engine work (docs/gating.md#engine-work), each kept
 * by its own row; and a new leader does not send again a node request whose fulfilment is
 * waiting to be applied.
 */
import type { MergeItem } from '../../../src/model/changes';
import { EngineWorkRepository } from '../../../src/store/repositories/engine-work';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';

const gate = pipeline('gate', 'dependent', { triggers: [], submit: true });

describe('engine: bounded passes and takeovers', () => {
  let db: TestDatabase;
  const harnesses: EngineHarness[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterEach(async () => {
    for (const h of harnesses.splice(0)) {
      await h.stop();
      expect(h.errors).toEqual([]);
    }
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('commits a takeover pass before any slow call: look-ups before it, merges after it as engine work', async () => {
    const commits: number[] = [];
    const layout = makeLayout({
      tenant: nextTenant(),
      pipelines: [gate],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { gate: [job('unit')] } },
    });
    let h: EngineHarness | null = null;
    h = new EngineHarness(db, layout, undefined, {
      passBudgetMs: 2500,
      // What each committed pass had merged so far.
      onPassCommitted: () => commits.push(h?.merger.prepared.length ?? -1),
    });
    harnesses.push(h);
    // Each speculative merge and each change read takes a second (on the engine's clock).
    const harness = h;
    const prepare = harness.merger.prepare.bind(harness.merger);
    harness.merger.prepare = (items: readonly MergeItem[]) => {
      harness.clock.advance(1000);
      return prepare(items);
    };
    const getChange = harness.changes.getChange.bind(harness.changes);
    harness.changes.getChange = (...args: Parameters<typeof getChange>) => {
      harness.clock.advance(1000);
      return getChange(...args);
    };
    // Eight enqueues wait for the leader, as after a takeover.
    for (let number = 1; number <= 8; number += 1) {
      harness.changes.add('org/project', number);
      const queued = await harness.engine.enqueue(harness.tenant, {
        pipeline: 'gate',
        project: 'org/project',
        change: `${number},1`,
        by: 'admin',
      });
      expect(queued.ok).toBe(true);
    }
    const clockAtStart = harness.clock.now().getTime();
    await harness.start();
    await harness.settle();
    expect(harness.merger.prepared).toHaveLength(8);
    // The first pass committed before any speculative merge was made (its eight enqueues' look-ups
    // were answered before it opened its transaction); each merge then completed as its own row.
    expect(commits[0]).toBe(0);
    expect(harness.clock.now().getTime() - clockAtStart).toBe(16_000);
    const work = await new EngineWorkRepository(db.knex).all(harness.tenant);
    expect(work.map((row) => [row.kind, row.state, row.outcome])).toEqual(
      Array.from({ length: 8 }, () => ['speculative-merge', 'completed', 'merged']),
    );
    await harness.executor.finishAll();
    await harness.settle();
    expect(harness.reports()).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((number) => `${number},1 gate SUCCESS`));
  });

  it('does not send a node request again at a takeover when its fulfilment waits to be applied', async () => {
    const layout = makeLayout({
      tenant: nextTenant(),
      pipelines: [gate],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { gate: [job('unit', { nodeset: { name: 'one', labels: ['small'] } })] } },
    });
    const first = new EngineHarness(db, layout);
    harnesses.push(first);
    await first.start();
    // Results wait (as for a leader killed before it applied them).
    expect(await first.engine.setTenantState(first.tenant, { resultQueuePaused: true })).toMatchObject({ ok: true });
    first.changes.add('org/project', 1);
    await first.enqueue('gate', 'org/project', '1,1');
    expect(first.nodes.requests).toHaveLength(1);
    await first.stop();
    harnesses.splice(harnesses.indexOf(first), 1);

    const second = new EngineHarness(db, layout, {
      clock: first.clock,
      changes: first.changes,
      merger: first.merger,
      executor: first.executor,
    });
    harnesses.push(second);
    await second.start();
    await second.settle();
    expect(second.nodes.requests).toEqual([]);
    expect(await second.engine.setTenantState(second.tenant, { resultQueuePaused: false })).toMatchObject({ ok: true });
    second.engine.wake(second.tenant);
    await second.settle();
    expect(second.executor.running.size).toBe(1);
    const fulfilments = await db
      .knex('engine_events')
      .where({ tenant: second.tenant, event_type: 'nodes-provisioned' })
      .count({ n: '*' });
    expect(Number(fulfilments[0]?.n)).toBe(1);
    await second.executor.finishAll();
    await second.settle();
    expect(second.merger.mergedOrder).toEqual([1]);
  });
});
