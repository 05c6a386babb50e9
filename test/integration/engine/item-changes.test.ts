/**
 * Items mark themselves changed (src/engine/scheduler/item-changes.ts): every kind of change to a
 * held item — a field of the item, of its buildset, of a job, an array grown, shrunk or sorted, a
 * field deleted, an object replaced and then changed, a change through a reference taken before —
 * is written by the next save with no call to remember, and a save after no change writes nothing.
 */
import type { ItemState } from '../../../src/model/pipeline-state';
import { PassContext, type EngineGateways } from '../../../src/engine/pass-context';
import { TenantState } from '../../../src/engine/scheduler/tenant-state';
import { EngineStateRepository } from '../../../src/store/repositories/engine-state';
import type { EngineHarness } from '../../engine/harness';
import { engineScenarios } from '../../engine/scenarios';
import { gitTrigger, job, pipeline } from '../../engine/scripted-layout';

describe('engine: items mark themselves changed', () => {
  const scenarios = engineScenarios();

  /** A tenant with one check item running two jobs, its scheduler stopped, its state held anew. */
  async function heldItem(): Promise<{ h: EngineHarness; state: TenantState; repository: EngineStateRepository }> {
    const h = await scenarios.harness({
      pipelines: [pipeline('check', 'independent', { triggers: [gitTrigger(['patchset-created'])] })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { check: [job('unit'), job('lint')] } },
    });
    h.changes.add('org/project', 1);
    await h.patchsetCreated('org/project', 1);
    await h.settle();
    await h.stop();
    const repository = new EngineStateRepository(scenarios.db.knex);
    const state = new TenantState(repository, h.tenant, { knex: scenarios.db.knex, webRoot: () => null });
    await state.load();
    return { h, state, repository };
  }

  function item(state: TenantState): ItemState {
    return [...state.pipelines.values()][0].queues[0].items[0];
  }

  /** Save what the held state changed, as a pass would; the number of items written. */
  async function save(h: EngineHarness, state: TenantState, repository: EngineStateRepository): Promise<number> {
    const saveItems = jest.spyOn(repository, 'saveItems');
    try {
      await state.statusBaseline(h.layout);
      await scenarios.db.knex.transaction(async (trx) => {
        const ctx = new PassContext(h.tenant, new Date(), h.layout, trx, {} as EngineGateways);
        await state.save(trx, ctx, state.managers(h.layout), h.layout);
      });
      state.statusCommitted();
      return saveItems.mock.calls.reduce((sum, [, entries]) => sum + entries.length, 0);
    } finally {
      saveItems.mockRestore();
    }
  }

  async function stored(h: EngineHarness, repository: EngineStateRepository): Promise<ItemState> {
    const [check] = await repository.loadPipelines(h.tenant);
    return check.queues[0].items[0];
  }

  it('writes each kind of change, and nothing when nothing changed', async () => {
    const { h, state, repository } = await heldItem();
    expect(await save(h, state, repository)).toBe(0);

    const changes: Array<[string, (held: ItemState) => void, (saved: ItemState) => unknown, unknown]> = [
      ['an item field', (held) => (held.quiet = true), (saved) => saved.quiet, true],
      ['a buildset field', (held) => (held.buildset.configError = 'bad'), (saved) => saved.buildset.configError, 'bad'],
      [
        'a job field',
        (held) => (held.buildset.jobs[1].waitReason = 'nodes'),
        (saved) => saved.buildset.jobs[1].waitReason,
        'nodes',
      ],
      ['an array grown', (held) => held.failingReasons.push('broken'), (saved) => saved.failingReasons, ['broken']],
      [
        'an array sorted',
        (held) => held.buildset.jobs.sort((a, b) => a.job.name.localeCompare(b.job.name)),
        (saved) => saved.buildset.jobs.map((entry) => entry.job.name),
        ['lint', 'unit'],
      ],
      ['an array shrunk', (held) => held.failingReasons.splice(0, 1), (saved) => saved.failingReasons, []],
      ['a field deleted', (held) => delete held.requirementsIgnored, (saved) => saved.requirementsIgnored, undefined],
      [
        'an object replaced, then changed',
        (held) => {
          held.buildset.mergeItems = [...held.buildset.mergeItems];
          held.buildset.mergeItems.length = 0;
        },
        (saved) => saved.buildset.mergeItems,
        [],
      ],
      [
        'a change through a reference taken before',
        (held) => {
          const jobs = held.buildset.jobs;
          held.live = !held.live;
          held.live = !held.live; // the item alone is back as it was
          jobs[0].waitingStatus = 'waiting for nodes';
        },
        (saved) => saved.buildset.jobs[0].waitingStatus,
        'waiting for nodes',
      ],
    ];
    item(state).requirementsIgnored = true;
    expect(await save(h, state, repository)).toBe(1);
    for (const [kind, change, read, expected] of changes) {
      change(item(state));
      expect([kind, await save(h, state, repository)]).toEqual([kind, 1]);
      expect([kind, read(await stored(h, repository))]).toEqual([kind, expected]);
      expect([kind, 'again', await save(h, state, repository)]).toEqual([kind, 'again', 0]);
    }
    // What is held stays plain data: equal to what the store loads back.
    expect(JSON.parse(JSON.stringify(item(state)))).toEqual(await stored(h, repository));
  });

  it('writes nothing for a value set to what it already was', async () => {
    const { h, state, repository } = await heldItem();
    const held = item(state);
    const { quiet } = held;
    const { waitReason } = held.buildset.jobs[0];
    held.quiet = quiet;
    held.buildset.jobs[0].waitReason = waitReason;
    expect(await save(h, state, repository)).toBe(0);
  });
});
