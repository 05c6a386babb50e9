/**
 * Items mark themselves changed (src/engine/scheduler/item-changes.ts): every kind of change to a
 * held item — a field of the item, of its buildset, of a job, an array grown, shrunk or sorted, a
 * field deleted, an object replaced and then changed, a change through a reference taken before,
 * an object two items hold — is written by the next save with no call to remember, and a save
 * after no change writes nothing. The saves here run without the check of unmarked items (a mark
 * missed is then a write lost, which the comparison with the store finds), except the last case,
 * which shows that check failing the save on a write the proxies could not see.
 */
import type { ItemState, QueueState } from '../../../src/model/pipeline-state';
import { PassContext, type EngineGateways } from '../../../src/engine/pass-context';
import { resetItemAndBehind } from '../../../src/engine/pipeline/leaving';
import { ItemChangeTracker, untracked } from '../../../src/engine/scheduler/item-changes';
import { TenantState } from '../../../src/engine/scheduler/tenant-state';
import { EngineStateRepository } from '../../../src/store/repositories/engine-state';
import type { EngineHarness } from '../../engine/harness';
import { engineScenarios } from '../../engine/scenarios';
import { gitTrigger, job, pipeline } from '../../engine/scripted-layout';

describe('engine: items mark themselves changed', () => {
  const scenarios = engineScenarios();
  const checkSetting = process.env.SLUICE_CHECK_ITEM_CHANGES;

  afterEach(() => {
    if (checkSetting === undefined) {
      delete process.env.SLUICE_CHECK_ITEM_CHANGES;
    } else {
      process.env.SLUICE_CHECK_ITEM_CHANGES = checkSetting;
    }
  });

  interface Held {
    h: EngineHarness;
    state: TenantState;
    repository: EngineStateRepository;
  }

  /** The tenant's state held anew (its scheduler stopped), with or without the check of unmarked items. */
  async function hold(h: EngineHarness, check = false): Promise<Held> {
    await h.settle();
    await h.stop();
    process.env.SLUICE_CHECK_ITEM_CHANGES = check ? '1' : '0';
    const repository = new EngineStateRepository(scenarios.db.knex);
    const state = new TenantState(repository, h.tenant, { knex: scenarios.db.knex, webRoot: () => null });
    await state.load();
    return { h, state, repository };
  }

  /** A check item running two jobs. */
  async function checkItem(): Promise<Held> {
    const h = await scenarios.harness({
      pipelines: [pipeline('check', 'independent', { triggers: [gitTrigger(['patchset-created'])] })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { check: [job('unit'), job('lint')] } },
    });
    h.changes.add('org/project', 1);
    await h.patchsetCreated('org/project', 1);
    return hold(h);
  }

  /** Changes 1, 2 and 3 in a gate queue, each running its job on top of the ones ahead. */
  async function gateQueue(check = false): Promise<Held> {
    const h = await scenarios.harness({
      pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { gate: [job('unit')] } },
    });
    for (const number of [1, 2, 3]) {
      h.changes.add('org/project', number);
      await h.enqueue('gate', 'org/project', `${number},1`);
    }
    return hold(h, check);
  }

  function queueOf(state: TenantState): QueueState {
    return [...state.pipelines.values()][0].queues[0];
  }

  /** Run `change` inside a pass's transaction and save, as a pass would; the number of items written. */
  async function pass(
    held: Held,
    change: (ctx: PassContext) => Promise<void> | void = () => undefined,
  ): Promise<number> {
    const { h, state, repository } = held;
    const saveChanges = jest.spyOn(repository, 'saveChanges');
    try {
      await state.statusBaseline(h.layout);
      await scenarios.db.knex.transaction(async (trx) => {
        const ctx = new PassContext(h.tenant, new Date(), h.layout, trx, {} as EngineGateways);
        await change(ctx);
        await state.save(trx, ctx, state.managers(h.layout), h.layout);
      });
      state.statusCommitted();
      return saveChanges.mock.calls.reduce((sum, [, changes]) => sum + changes.items.length, 0);
    } finally {
      saveChanges.mockRestore();
    }
  }

  async function storedItems({ h, repository }: Held): Promise<ItemState[]> {
    const [loaded] = await repository.loadPipelines(h.tenant);
    return loaded.queues[0].items;
  }

  /** What is held is plain data, equal to what the store loads back. */
  async function expectStoredAsHeld(held: Held): Promise<void> {
    const plain = JSON.parse(JSON.stringify(queueOf(held.state).items)) as ItemState[];
    expect(await storedItems(held)).toEqual(plain);
  }

  it('writes each kind of change, and nothing when nothing changed', async () => {
    const held = await checkItem();
    const item = (): ItemState => queueOf(held.state).items[0];
    expect(await pass(held)).toBe(0);

    const changes: Array<[string, (item: ItemState) => void, (saved: ItemState) => unknown, unknown]> = [
      ['an item field', (it) => (it.quiet = true), (saved) => saved.quiet, true],
      ['a buildset field', (it) => (it.buildset.configError = 'bad'), (saved) => saved.buildset.configError, 'bad'],
      [
        'a job field',
        (it) => (it.buildset.jobs[1].waitReason = 'nodes'),
        (saved) => saved.buildset.jobs[1].waitReason,
        'nodes',
      ],
      ['an array grown', (it) => it.failingReasons.push('broken'), (saved) => saved.failingReasons, ['broken']],
      [
        'an array sorted',
        (it) => it.buildset.jobs.sort((a, b) => a.job.name.localeCompare(b.job.name)),
        (saved) => saved.buildset.jobs.map((entry) => entry.job.name),
        ['lint', 'unit'],
      ],
      ['an array shrunk', (it) => it.failingReasons.splice(0, 1), (saved) => saved.failingReasons, []],
      ['a field deleted', (it) => delete it.requirementsIgnored, (saved) => saved.requirementsIgnored, undefined],
      [
        'an object replaced, then changed',
        (it) => {
          it.buildset.mergeItems = [...it.buildset.mergeItems];
          it.buildset.mergeItems.length = 0;
        },
        (saved) => saved.buildset.mergeItems,
        [],
      ],
      [
        'a copy of a nested object put back, then changed',
        (it) => {
          it.buildset.jobs = it.buildset.jobs.map((entry) => ({ ...entry }));
          it.buildset.jobs[0].nodes.push({ id: 'n1', label: 'small' });
        },
        (saved) => saved.buildset.jobs[0].nodes,
        [{ id: 'n1', label: 'small' }],
      ],
    ];
    item().requirementsIgnored = true;
    expect(await pass(held)).toBe(1);
    for (const [kind, change, read, expected] of changes) {
      await pass(held, () => change(item())).then((written) => expect([kind, written]).toEqual([kind, 1]));
      expect([kind, read((await storedItems(held))[0])]).toEqual([kind, expected]);
      expect([kind, 'again', await pass(held)]).toEqual([kind, 'again', 0]);
    }
    // A reference taken in one pass and changed in the next.
    const jobs = item().buildset.jobs;
    expect(await pass(held, () => void (jobs[0].waitingStatus = 'waiting for nodes'))).toBe(1);
    await expectStoredAsHeld(held);
  });

  it('writes nothing for a value set to what it already was', async () => {
    const held = await checkItem();
    const item = queueOf(held.state).items[0];
    const { quiet } = item;
    const { waitReason } = item.buildset.jobs[0];
    expect(
      await pass(held, () => {
        item.quiet = quiet;
        item.buildset.jobs[0].waitReason = waitReason;
      }),
    ).toBe(0);
  });

  it('writes the items behind a reset item, and later changes deep inside them', async () => {
    const held = await gateQueue();
    const [first, second, third] = queueOf(held.state).items;
    const oldBuildsets = [second.buildset.uuid, third.buildset.uuid];
    expect(third.buildset.mergeItems.map((merge) => merge.number)).toEqual([1, 2, 3]);
    // Change 2 failed: it and 3 behind it start over, as a queue pass does it.
    await pass(held, (ctx) =>
      resetItemAndBehind(ctx, queueOf(held.state), second, { kind: 'item-ahead-failed', by: null }),
    );
    const stored = await storedItems(held);
    expect(stored.map((item) => item.buildset.uuid)).toEqual([
      first.buildset.uuid,
      second.buildset.uuid,
      third.buildset.uuid,
    ]);
    expect(stored[2].buildset.uuid).not.toBe(oldBuildsets[1]);
    expect(stored[2].buildset.mergeItems).toEqual([]);
    await expectStoredAsHeld(held);

    // The next passes change fields deep inside the item behind, through references of an earlier pass.
    const mergeItems = third.buildset.mergeItems;
    const firstMerge = { ...first.buildset.mergeItems[0] };
    expect(await pass(held, () => void mergeItems.push(firstMerge))).toBe(1);
    expect(await pass(held, () => void (mergeItems[0].branch = 'stable'))).toBe(1);
    expect((await storedItems(held))[2].buildset.mergeItems).toEqual([{ ...firstMerge, branch: 'stable' }]);
    expect(await pass(held, () => void third.changes[0].dependsOn.push({ project: 'org/other', number: 7 }))).toBe(1);
    await expectStoredAsHeld(held);
  });

  it('writes every item holding an object that changed, not only the one it was reached through', async () => {
    const held = await gateQueue();
    const [, second, third] = queueOf(held.state).items;
    expect(await pass(held, () => void (second.buildset.mergeItems = third.buildset.mergeItems))).toBe(1);
    // Reached through the third item only; the second holds it as well.
    expect(await pass(held, () => void third.buildset.mergeItems.pop())).toBe(2);
    expect((await storedItems(held))[1].buildset.mergeItems.map((merge) => merge.number)).toEqual([1, 2]);
    // Loaded again, the two items hold copies: the shared object was one within a run only.
    await expectStoredAsHeld(held);
  });

  it('makes the text of a merge list again only after a write into it', async () => {
    const held = await gateQueue();
    const third = queueOf(held.state).items[2];
    const stringify = jest.spyOn(JSON, 'stringify');
    // The texts made of the plain list behind the item's proxies.
    const listTexts = (): number =>
      stringify.mock.calls.filter(([value]) => value === untracked(third).buildset.mergeItems).length;
    try {
      // The item changed, its merge list did not: the list's text is the one made before.
      expect(await pass(held, () => void (third.quiet = true))).toBe(1);
      expect(listTexts()).toBe(0);
      // A write deep inside the list (read through the item) makes it again.
      expect(await pass(held, () => void (third.buildset.mergeItems[1].branch = 'stable'))).toBe(1);
      expect(listTexts()).toBe(1);
      expect((await storedItems(held))[2].buildset.mergeItems[1].branch).toBe('stable');
    } finally {
      stringify.mockRestore();
    }
    // The third item's list replaced, written, then put back: its text is made again.
    const list = third.buildset.mergeItems;
    expect(
      await pass(held, () => {
        third.buildset.mergeItems = [];
        list.pop();
      }),
    ).toBe(1);
    expect(await pass(held, () => void (third.buildset.mergeItems = list))).toBe(1);
    expect((await storedItems(held))[2].buildset.mergeItems.map((merge) => merge.number)).toEqual([1, 2]);
    // Written through the third item, then handed to the second one (saved first) in one pass.
    const second = queueOf(held.state).items[1];
    expect(
      await pass(held, () => {
        third.buildset.mergeItems.pop();
        second.buildset.mergeItems = third.buildset.mergeItems;
      }),
    ).toBe(2);
    expect((await storedItems(held))[1].buildset.mergeItems.map((merge) => merge.number)).toEqual([1]);
    // Shared with the second item, written through it: both lists' texts are made again.
    expect(await pass(held, () => void (second.buildset.mergeItems[0].branch = 'old'))).toBe(2);
    expect((await storedItems(held))[2].buildset.mergeItems[0].branch).toBe('old');
    await expectStoredAsHeld(held);
  });

  it('fails to track an item with a cycle, which only a write no proxy saw can make', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const item = { uuid: 'cyclic', buildset: { mergeItems: [], jobs: [] }, cycle } as unknown as ItemState;
    expect(() => new ItemChangeTracker().track(item)).toThrow('a cycle?');
  });

  it('fails a write that stores a cycle into a tracked item (the item could not be saved as JSON)', () => {
    const tracker = new ItemChangeTracker();
    const item = tracker.track({
      uuid: 'stored-cycle',
      buildset: { mergeItems: [], jobs: [] },
    } as unknown as ItemState);
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = { back: cycle };
    expect(() => {
      (item.buildset as unknown as Record<string, unknown>).extra = cycle;
    }).toThrow('a cycle?');
  });

  it('fails the save on a change nothing marked, when unmarked items are checked', async () => {
    const held = await gateQueue(true);
    const third = queueOf(held.state).items[2];
    expect(await pass(held)).toBe(0);
    // The descriptor's value is the plain buildset behind the proxy: a write no proxy sees.
    const plain = Object.getOwnPropertyDescriptor(third, 'buildset')?.value as ItemState['buildset'];
    await expect(pass(held, () => void (plain.configError = 'unseen'))).rejects.toThrow(
      `changed without being marked changed: ${third.uuid}`,
    );
  });

  it('fails the save on a write into a merge list nothing marked, though its item changed otherwise', async () => {
    const held = await gateQueue(true);
    const third = queueOf(held.state).items[2];
    // The plain list behind the proxies: the save would keep the text it made of it before.
    const buildset = Object.getOwnPropertyDescriptor(third, 'buildset')?.value as ItemState['buildset'];
    await expect(
      pass(held, () => {
        third.quiet = true;
        buildset.mergeItems[0].branch = 'unseen';
      }),
    ).rejects.toThrow(`changed without being marked changed: ${third.uuid}`);
  });
});
