/**
 * A pass's cost does not grow with the items waiting outside the window (docs/gating.md#performance).
 * Gate queues of 8, 20 and 32 changes, two in the window running their jobs, the rest waiting,
 * each held anew from the store; one pass (the queues walked until stable, then the save) over
 * each, counting its reads of the held items (src/engine/scheduler/item-changes.ts, `itemReads`):
 * no waiting item is read through a proxy at all, only through `untracked`, and each costs the
 * same few look-ups whatever the length of the queue, so twelve more items cost the same from 20
 * to 32 as from 8 to 20. A per-item scan of the queue makes that growth quadratic and fails here; unlike
 * time, the counts do not depend on the machine. The same holds in a queue where every change
 * names the two changes ahead of it in Depends-On: looking them up among the items ahead must not
 * walk the whole queue for each item (docs/gating.md#performance). And in a check queue where one
 * change brings the chain of changes it depends on ahead of it as non-live items: whether each
 * of them still has an item behind it must not be a walk of the whole queue either. And an
 * enqueue, which asks whether the pipeline holds the change already, looks it up in an index of
 * the queue's items (src/engine/queue-index.ts) instead of looking at each.
 */
import type { ChangeInfo } from '../../../src/model/changes';
import { itemReads } from '../../../src/engine/scheduler/item-changes';
import { PassContext } from '../../../src/engine/pass-context';
import { TenantState } from '../../../src/engine/scheduler/tenant-state';
import { EngineStateRepository } from '../../../src/store/repositories/engine-state';
import type { EngineHarness } from '../../engine/harness';
import { engineScenarios } from '../../engine/scenarios';
import { job, pipeline } from '../../engine/scripted-layout';

const WINDOW = 2;

/**
 * `untracked` look-ups per waiting item and pass: 12 as measured, with room for two more (18
 * before the walk read each item's plain data once and shared the queue's index of uuids).
 */
const UNTRACKED_PER_WAITING_ITEM = 14;

/** The same with Depends-On on the two changes ahead: 19 as measured (24 before), with room for two more. */
const UNTRACKED_PER_WAITING_ITEM_WITH_DEPENDS_ON = 21;

/**
 * The same for a non-live item of a check queue (window 0: every item is prepared, and read through
 * its proxy there, 13 reads as measured): 18 as measured (21 before), with room for two more.
 */
const UNTRACKED_PER_NON_LIVE_ITEM = 20;

/** Changes enqueued one after another into the held queue by the enqueue test. */
const ENQUEUED = 4;

/**
 * `untracked` look-ups per item of the queue for those {@link ENQUEUED} enqueues: 1 as measured
 * (the index of the queue's changes, built at the first; each enqueue looked at every item three
 * times before, 12 for the four).
 */
const UNTRACKED_PER_ITEM_FOR_ENQUEUES = 1;

/**
 * `untracked` look-ups per item of the queue for a trigger event of a change it does not hold: 2
 * as measured (the index of the queue's changes, and whether each item is live for the look at
 * dependency cycles, which still reads every item).
 */
const UNTRACKED_PER_ITEM_FOR_A_TRIGGER = 2;

type Reads = typeof itemReads;

describe('engine: the cost of a pass and the items outside the window', () => {
  const scenarios = engineScenarios();

  /**
   * A gate queue of `changes` changes, the first two running their jobs, each change naming the
   * `depends` changes just ahead of it in Depends-On; its state held anew. In `check` (an
   * independent pipeline) only the last change is enqueued: the others come ahead of it as
   * non-live items, and it runs its jobs.
   */
  async function heldQueue(
    changes: number,
    depends = 0,
    into: 'gate' | 'check' = 'gate',
  ): Promise<{ h: EngineHarness; state: TenantState }> {
    const h = await scenarios.harness({
      pipelines: [
        pipeline(into, into === 'gate' ? 'dependent' : 'independent', {
          triggers: [],
          submit: true,
          window: {
            window: WINDOW,
            floor: WINDOW,
            ceiling: WINDOW,
            increaseType: 'linear',
            increaseFactor: 1,
            decreaseType: 'exponential',
            decreaseFactor: 2,
          },
        }),
      ],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { [into]: [job('unit'), job('lint')] } },
    });
    for (let number = 1; number <= changes; number += 1) {
      const dependsOn = [];
      for (let needed = Math.max(1, number - depends); needed < number; needed += 1) {
        dependsOn.push({ project: 'org/project', number: needed });
      }
      h.changes.add('org/project', number, { dependsOn });
      if (into === 'gate' || number === changes) {
        expect(await h.enqueue(into, 'org/project', `${number},1`)).toBe('ok');
      }
    }
    await h.settle();
    expect(h.executor.running.size).toBe(into === 'gate' ? WINDOW * 2 : 2);
    await h.stop();
    const knex = h.database.knex;
    const state = new TenantState(new EngineStateRepository(knex), h.tenant, { knex, webRoot: () => null });
    await state.load();
    return { h, state };
  }

  /** The reads of one pass that finds nothing to do: every queue walked until stable, then saved. */
  async function passReads({ h, state }: { h: EngineHarness; state: TenantState }): Promise<Reads> {
    await state.statusBaseline(h.layout);
    const before = { ...itemReads };
    let changed = false;
    let deltas = 0;
    await h.database.knex.transaction(async (trx) => {
      const gateways = { changes: h.changes, merger: h.merger, executor: h.executor, nodes: h.nodes };
      const ctx = new PassContext(h.tenant, h.clock.now(), h.layout, trx, gateways);
      const managers = state.managers(h.layout);
      for (const manager of managers.values()) {
        changed = (await manager.processQueues(ctx)) || changed;
      }
      await state.save(trx, ctx, managers, h.layout);
      deltas = ctx.deltas.length;
    });
    state.statusCommitted();
    expect({ changed, deltas }).toEqual({ changed: false, deltas: 0 });
    return {
      traps: itemReads.traps - before.traps,
      wrapped: itemReads.wrapped - before.wrapped,
      untracked: itemReads.untracked - before.untracked,
    };
  }

  /**
   * The reads of enqueueing `count` new changes one after another into the held queue, in one
   * pass (the queue walk left out): whether the pipeline holds each change already must not be a
   * look at every item for each enqueue.
   */
  async function enqueueReads({ h, state }: { h: EngineHarness; state: TenantState }, count: number): Promise<Reads> {
    const held = [...state.pipelines.values()].flatMap((pipelineState) => pipelineState.queues)[0].items.length;
    const changes: ChangeInfo[] = [];
    for (let number = held + 1; number <= held + count; number += 1) {
      h.changes.add('org/project', number);
      const change = await h.changes.getChange('org/project', number);
      expect(change).not.toBeNull();
      changes.push(change as ChangeInfo);
    }
    await state.statusBaseline(h.layout);
    const before = { ...itemReads };
    await h.database.knex.transaction(async (trx) => {
      const gateways = { changes: h.changes, merger: h.merger, executor: h.executor, nodes: h.nodes };
      const ctx = new PassContext(h.tenant, h.clock.now(), h.layout, trx, gateways);
      const gate = state.managers(h.layout).get('gate');
      expect(gate).toBeDefined();
      for (const change of changes) {
        const options = { live: true, quiet: false, eventId: null, eventTimestamp: ctx.nowIso() };
        expect(await gate?.addChange(ctx, change, options)).toMatchObject({ enqueued: true });
      }
    });
    return {
      traps: itemReads.traps - before.traps,
      wrapped: itemReads.wrapped - before.wrapped,
      untracked: itemReads.untracked - before.untracked,
    };
  }

  /**
   * The reads of what a trigger event of a change the queue does not hold asks the gate (a new
   * patchset, the change abandoned, its cycle read again; src/engine/scheduler/trigger-events.ts),
   * in one pass.
   */
  async function triggerReads({ h, state }: { h: EngineHarness; state: TenantState }): Promise<Reads> {
    const number = [...state.pipelines.values()].flatMap((pipelineState) => pipelineState.queues)[0].items.length + 1;
    h.changes.add('org/project', number);
    const change = await h.changes.getChange('org/project', number);
    expect(change).not.toBeNull();
    await state.statusBaseline(h.layout);
    const before = { ...itemReads };
    await h.database.knex.transaction(async (trx) => {
      const gateways = { changes: h.changes, merger: h.merger, executor: h.executor, nodes: h.nodes };
      const ctx = new PassContext(h.tenant, h.clock.now(), h.layout, trx, gateways);
      const gate = state.managers(h.layout).get('gate');
      expect(gate?.config.dequeueOnNewPatchset).toBe(true);
      await gate?.removeOldPatchsets(ctx, change as ChangeInfo);
      await gate?.removeAbandonedChange(ctx, change as ChangeInfo);
      await gate?.removeChangedCycles(ctx, change as ChangeInfo);
      expect(ctx.deltas).toEqual([]);
    });
    return {
      traps: itemReads.traps - before.traps,
      wrapped: itemReads.wrapped - before.wrapped,
      untracked: itemReads.untracked - before.untracked,
    };
  }

  function growth(from: Reads, to: Reads): Reads {
    return {
      traps: to.traps - from.traps,
      wrapped: to.wrapped - from.wrapped,
      untracked: to.untracked - from.untracked,
    };
  }

  /** Reads at 8, 20 and 32 changes, logged under `label`; checks they grow linearly and returns the step. */
  async function linearStep(label: string, measure: (changes: number) => Promise<Reads>): Promise<Reads> {
    const reads: Reads[] = [];
    for (const changes of [8, 20, 32]) {
      reads.push(await measure(changes));
    }
    const first = growth(reads[0], reads[1]);
    const second = growth(reads[1], reads[2]);
    process.stdout.write(`${label}: ${JSON.stringify(reads)}\n`);
    expect(second).toEqual(first);
    return first;
  }

  it('reads each waiting item a few times, without proxies handing out objects, linearly', async () => {
    const first = await linearStep('pass reads at 8, 20, 32 changes', async (changes) =>
      passReads(await heldQueue(changes)),
    );
    expect(first).toEqual({ traps: 0, wrapped: 0, untracked: first.untracked });
    expect(first.untracked).toBeLessThanOrEqual(12 * UNTRACKED_PER_WAITING_ITEM);
  });

  it('looks the Depends-On of each waiting item up among the items ahead in as many reads whatever the queue', async () => {
    const first = await linearStep('pass reads at 8, 20, 32 changes with Depends-On', async (changes) =>
      passReads(await heldQueue(changes, 2)),
    );
    expect(first).toEqual({ traps: 0, wrapped: 0, untracked: first.untracked });
    expect(first.untracked).toBeLessThanOrEqual(12 * UNTRACKED_PER_WAITING_ITEM_WITH_DEPENDS_ON);
  });

  it('asks each non-live item of a check queue whether an item is behind it in as many reads whatever the queue', async () => {
    const first = await linearStep('pass reads at 7, 19, 31 non-live items', async (changes) => {
      const held = await heldQueue(changes, 1, 'check');
      const queues = [...held.state.pipelines.values()].flatMap((state) => state.queues);
      expect(queues.map((queue) => queue.items.filter((item) => !item.live).length)).toEqual([changes - 1]);
      return await passReads(held);
    });
    expect(first.untracked).toBeLessThanOrEqual(12 * UNTRACKED_PER_NON_LIVE_ITEM);
  });

  it('looks for each enqueued change among the items of the queue in an index, built once', async () => {
    const first = await linearStep(`enqueue reads of ${ENQUEUED} changes at 8, 20, 32 changes`, async (changes) =>
      enqueueReads(await heldQueue(changes), ENQUEUED),
    );
    expect(first).toEqual({ traps: 0, wrapped: 0, untracked: first.untracked });
    // Each waiting item is read once, to index it, whatever the number of changes enqueued.
    expect(first.untracked).toBeLessThanOrEqual(12 * UNTRACKED_PER_ITEM_FOR_ENQUEUES);
  });

  it("finds the items holding a trigger event's change without reading every item through its proxy", async () => {
    const first = await linearStep('trigger event reads at 8, 20, 32 changes', async (changes) =>
      triggerReads(await heldQueue(changes)),
    );
    // Before, each item was read through its proxy three times (5 traps, 1 wrapped).
    expect(first).toEqual({ traps: 0, wrapped: 0, untracked: first.untracked });
    expect(first.untracked).toBeLessThanOrEqual(12 * UNTRACKED_PER_ITEM_FOR_A_TRIGGER);
  });
});
