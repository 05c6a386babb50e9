/**
 * Gate resets (docs/gating.md#resets): an item's result counts only when every item ahead that
 * it was tested with is still expected to merge. Jobs here decide by content, as a job script
 * reading its workspace does: they fail when the build's speculative state holds any failing
 * change, so a good change tested on top of a failing one fails unless the engine resets it.
 * Deterministic scenarios, then randomized runs with fixed seeds (test/engine/random-gate.ts;
 * `bench/gate-resets.ts` runs long ones).
 */
import type { EngineHarness } from '../../engine/harness';
import { failingInTree, planRandomGate, randomGateMistakes, runRandomGate } from '../../engine/random-gate';
import { engineScenarios } from '../../engine/scenarios';
import { job, pipeline } from '../../engine/scripted-layout';

jest.setTimeout(180_000);

/** Seeds of the randomized runs in CI (`SLUICE_GATE_SEEDS=1,2,3` for others). */
const SEEDS = (process.env.SLUICE_GATE_SEEDS ?? '11,23,37,101,4242,90210').split(',').map(Number);

describe('engine: gate resets', () => {
  const scenarios = engineScenarios();

  async function gateOf(window = 20): Promise<EngineHarness> {
    const h = await scenarios.harness({
      pipelines: [
        pipeline('gate', 'dependent', {
          triggers: [],
          submit: true,
          window: {
            window,
            floor: 2,
            ceiling: null,
            increaseType: 'linear',
            increaseFactor: 1,
            decreaseType: 'exponential',
            decreaseFactor: 2,
          },
        }),
      ],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { gate: [job('unit')] } },
    });
    return h;
  }

  async function enqueueAll(h: EngineHarness, numbers: number[]): Promise<void> {
    for (const number of numbers) {
      h.changes.add('org/project', number);
      await h.enqueue('gate', 'org/project', `${number},1`);
    }
  }

  /** Finish the running unit build of a change by content; returns the result sent. */
  async function finishByContent(h: EngineHarness, change: number, failing: ReadonlySet<number>): Promise<string> {
    const [params] = h.executor.find('unit', change);
    if (!params) {
      throw new Error(`no running build of change ${change}`);
    }
    const result = failingInTree(params, failing).length > 0 ? 'FAILURE' : 'SUCCESS';
    await h.executor.complete(params.buildUuid, { result });
    await h.settle();
    return result;
  }

  it('resets every item behind a failing one, also those whose builds already finished', async () => {
    const h = await gateOf();
    const failing = new Set([2]);
    await enqueueAll(h, [1, 2, 3, 4, 5]);
    // 5 finishes first, on a state holding 2: its failure must not count.
    expect(await finishByContent(h, 5, failing)).toBe('FAILURE');
    expect(await finishByContent(h, 4, failing)).toBe('FAILURE');
    expect(await finishByContent(h, 2, failing)).toBe('FAILURE');
    // 3, 4 and 5 were tested again without 2.
    for (const change of [3, 4, 5]) {
      expect(h.executor.find('unit', change).map((params) => params.mergeItems.map((item) => item.number))).toEqual([
        change === 3 ? [1, 3] : change === 4 ? [1, 3, 4] : [1, 3, 4, 5],
      ]);
    }
    for (const change of [1, 3, 4, 5]) {
      expect(await finishByContent(h, change, failing)).toBe('SUCCESS');
    }
    expect(h.reports()).toEqual([
      '1,1 gate SUCCESS',
      '2,1 gate FAILURE',
      '3,1 gate SUCCESS',
      '4,1 gate SUCCESS',
      '5,1 gate SUCCESS',
    ]);
    expect(h.merger.mergedOrder).toEqual([1, 3, 4, 5]);
  });

  it('resets the items behind a failing head that reports in the pass its failure is seen', async () => {
    const h = await gateOf();
    const failing = new Set([1]);
    await enqueueAll(h, [1, 2, 3]);
    expect(await finishByContent(h, 3, failing)).toBe('FAILURE');
    expect(await finishByContent(h, 1, failing)).toBe('FAILURE');
    expect(h.reports()).toEqual(['1,1 gate FAILURE']);
    expect(await finishByContent(h, 2, failing)).toBe('SUCCESS');
    expect(await finishByContent(h, 3, failing)).toBe('SUCCESS');
    expect(h.reports()).toEqual(['1,1 gate FAILURE', '2,1 gate SUCCESS', '3,1 gate SUCCESS']);
    expect(h.merger.mergedOrder).toEqual([2, 3]);
  });

  it.each(SEEDS)('randomized run, seed %i: every good change merged once, every failing one rejected', async (seed) => {
    const plan = planRandomGate(seed, 30, { failRatio: 0.25, maxOpen: 12 });
    const h = await scenarios.harness(plan.layout);
    const outcome = await runRandomGate(h, plan);
    expect({ seed, mistakes: randomGateMistakes(plan, outcome) }).toEqual({ seed, mistakes: [] });
    expect(h.executor.running.size).toBe(0);
  });
});
