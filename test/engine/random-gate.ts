/**
 * A randomized gate run over the engine harness (docs/gating.md#resets): changes of two projects
 * sharing one dependent queue are enqueued in a random order under a random window, and a
 * scripted executor finishes random running builds, a few at a time, in random order. Every job
 * decides by content, as a job script reading its workspace would: it fails when the speculative
 * state it was given (the build's merge items) holds any failing change, its own or one ahead.
 * So an item whose result counts although it was tested with a failing change ahead fails a good
 * change, which the run's checks catch. Now and then an administrator dequeues or promotes a
 * queued change, and the branch refuses the merge of a few good changes (MERGE_FAILURE): each is
 * a way an item ahead leaves without merging. Every merged change must also have been tested on
 * exactly the changes merged before it. The seed fixes every decision.
 */
import type { BuildParams } from '../../src/engine/ports/executor';
import type { EnginePipeline } from '../../src/engine/ports/layout';
import type { EngineJob } from '../../src/model/pipeline-state';
import { SeededRandom } from '../helpers/chaos/seeded-random';
import type { EngineHarness } from './harness';
import { job, pipeline, type LayoutSpec } from './scripted-layout';

export const RANDOM_GATE_PROJECTS = ['org/alpha', 'org/beta'] as const;

export interface RandomGatePlan {
  seed: number;
  /** Change numbers in the order they are enqueued. */
  order: number[];
  /** Changes whose content makes every job that sees it fail. */
  failing: Set<number>;
  /** Good changes whose merge into the branch is refused (reported MERGE_FAILURE). */
  refused: Set<number>;
  /** The project of each change. */
  projectOf: Map<number, string>;
  /** The layout of the run (tenant left to the harness). */
  layout: Omit<LayoutSpec, 'tenant'>;
  /** Unreported changes in the queue at most (the enqueuer waits beyond it). */
  maxOpen: number;
}

export interface RandomGateFigures {
  changes: number;
  failing: number;
  window: EnginePipeline['window'];
  /** Builds the executor was asked to start (retries and rebuilds after resets included). */
  buildsStarted: number;
  /** Builds finished by the run (results sent, stale ones included). */
  buildsFinished: number;
  /** Builds the engine canceled (resets, dequeues). */
  buildsCanceled: number;
  /** Steps of the driver (an enqueue or a batch of results, each followed by a settle unless skipped). */
  steps: number;
  /** Changes enqueued and not yet reported, at most. */
  deepestQueue: number;
  durationMs: number;
}

export interface RandomGateOutcome {
  /** Results reported per change, in report order. */
  reports: Map<number, string[]>;
  /** Changes an administrator dequeued (they are not reported). */
  dequeued: Set<number>;
  /** The changes in the speculative state of each change's last build (its final buildset). */
  testedOn: Map<number, number[]>;
  /** Changes merged, in merge order (repeats kept). */
  merged: number[];
  figures: RandomGateFigures;
}

function randomWindow(random: SeededRandom): EnginePipeline['window'] {
  const window = random.int(2, 20);
  const increaseType = random.chance(0.5) ? 'linear' : 'exponential';
  const decreaseType = random.chance(0.5) ? 'linear' : 'exponential';
  return {
    window,
    floor: random.int(1, 4),
    ceiling: random.chance(0.5) ? null : window + random.int(0, 10),
    increaseType,
    increaseFactor: increaseType === 'linear' ? random.int(1, 3) : 2,
    decreaseType,
    decreaseFactor: decreaseType === 'linear' ? random.int(1, 4) : 2,
  };
}

/** One to three jobs, the later ones sometimes depending on the first (a failure skips them). */
function randomJobs(random: SeededRandom, prefix: string): EngineJob[] {
  const count = random.int(1, 3);
  const first = job(`${prefix}-unit`);
  const jobs = [first];
  for (let index = 1; index < count; index += 1) {
    const dependsOnFirst = random.chance(0.5);
    jobs.push(
      job(`${prefix}-job${index}`, {
        dependencies: dependsOnFirst ? [{ name: first.name, soft: false }] : [],
      }),
    );
  }
  return jobs;
}

/** Draw a run: enqueue order, failing changes, window and jobs. */
export function planRandomGate(
  seed: number,
  changes: number,
  options: { failRatio: number; maxOpen: number },
): RandomGatePlan {
  const random = new SeededRandom(seed);
  const numbers = Array.from({ length: changes }, (_, index) => index + 1);
  const failing = new Set(numbers.filter(() => random.chance(options.failRatio)));
  const refused = new Set(numbers.filter((number) => !failing.has(number) && random.chance(0.05)));
  const order = [...numbers];
  for (let index = order.length - 1; index > 0; index -= 1) {
    const other = random.below(index + 1);
    [order[index], order[other]] = [order[other], order[index]];
  }
  const projectOf = new Map(numbers.map((number) => [number, random.pick(RANDOM_GATE_PROJECTS)]));
  const gate = pipeline('gate', 'dependent', { triggers: [], submit: true, window: randomWindow(random) });
  return {
    seed,
    order,
    failing,
    refused,
    projectOf,
    maxOpen: options.maxOpen,
    layout: {
      pipelines: [gate],
      projects: RANDOM_GATE_PROJECTS.map((name) => ({ name, queue: 'shared' })),
      jobs: Object.fromEntries(
        RANDOM_GATE_PROJECTS.map((name) => [name, { gate: randomJobs(random, name.replace('org/', '')) }]),
      ),
    },
  };
}

/**
 * Dequeue or promote a random queued change, as an administrator does; false when none is queued.
 * A dequeue that comes after the change left is refused by the engine and changes nothing.
 */
async function adminAction(
  h: EngineHarness,
  plan: RandomGatePlan,
  random: SeededRandom,
  queued: readonly number[],
  reports: ReadonlyMap<number, string[]>,
  dequeued: ReadonlySet<number>,
): Promise<boolean> {
  const open = queued.filter((number) => !reports.has(number) && !dequeued.has(number));
  if (open.length < 2) {
    return false;
  }
  // Not the newest: a change with others tested on top of it.
  const number = random.pick(open.slice(0, -1));
  const change = `${number},1`;
  const result = random.chance(0.75)
    ? await h.engine.dequeue(h.tenant, {
        pipeline: 'gate',
        project: plan.projectOf.get(number) ?? '',
        change,
        by: 'random-gate',
      })
    : await h.engine.promote(h.tenant, { pipeline: 'gate', changes: [change], by: 'random-gate' });
  if (!result.ok) {
    throw new Error(`seed ${plan.seed}: admin action on ${change} refused: ${result.error.message}`);
  }
  return true;
}

/** What a job decides from the state it was given: the failing changes in its tree. */
export function failingInTree(params: BuildParams, failing: ReadonlySet<number>): number[] {
  return params.mergeItems
    .map((item) => item.number)
    .filter((number): number is number => number !== null && failing.has(number));
}

/**
 * Run a plan on a started harness whose layout is `plan.layout`. Resolves once every change was
 * reported; throws when the gate stalls (nothing running, nothing to enqueue, changes unreported)
 * or runs past `maxSteps`.
 */
export async function runRandomGate(
  h: EngineHarness,
  plan: RandomGatePlan,
  options: { maxSteps?: number; log?: (line: string) => void } = {},
): Promise<RandomGateOutcome> {
  const random = new SeededRandom(plan.seed ^ 0x2545f491);
  const started = Date.now();
  const changeOfItem = new Map<string, number>();
  const reports = new Map<number, string[]>();
  const dequeued = new Set<number>();
  /** Changes reported or dequeued. */
  let settled = 0;
  h.bus.subscribe(h.tenant, (delta) => {
    if (delta.type === 'item-enqueued') {
      changeOfItem.set(delta.itemUuid, Number(delta.changeIds[0].split(',')[0]));
    } else if (delta.type === 'item-reported' && delta.pipeline === 'gate') {
      const change = changeOfItem.get(delta.itemUuid) ?? -1;
      const list = reports.get(change) ?? [];
      if (list.length === 0 && !dequeued.has(change)) {
        settled += 1;
      }
      reports.set(change, [...list, delta.result]);
    } else if (delta.type === 'item-dequeued' && delta.reason.kind === 'dequeued-by-admin') {
      const change = changeOfItem.get(delta.itemUuid) ?? -1;
      if (!dequeued.has(change) && !reports.has(change)) {
        settled += 1;
      }
      dequeued.add(change);
    }
  });
  for (const number of plan.refused) {
    h.merger.refuseMerge.add(number);
  }
  for (const number of plan.order) {
    h.changes.add(plan.projectOf.get(number) ?? RANDOM_GATE_PROJECTS[0], number);
  }
  const pending = [...plan.order];
  const queued: number[] = [];
  let enqueued = 0;
  let finishedBuilds = 0;
  let steps = 0;
  let deepest = 0;
  const maxSteps = options.maxSteps ?? plan.order.length * 200;
  while (settled < plan.order.length) {
    steps += 1;
    if (steps > maxSteps) {
      throw new Error(`seed ${plan.seed}: no end after ${maxSteps} steps (${settled} reported)`);
    }
    const running = [...h.executor.running.values()];
    const canEnqueue = pending.length > 0 && enqueued - settled < plan.maxOpen;
    if (canEnqueue && (running.length === 0 || random.chance(0.5))) {
      // One to three changes at once, up to the bound of open changes.
      const burst = Math.min(random.int(1, 3), pending.length, plan.maxOpen - (enqueued - settled));
      for (let index = 0; index < burst; index += 1) {
        const number = pending.shift() ?? 0;
        const result = await h.engine.enqueue(h.tenant, {
          pipeline: 'gate',
          project: plan.projectOf.get(number) ?? '',
          change: `${number},1`,
          by: 'random-gate',
        });
        if (!result.ok) {
          throw new Error(`seed ${plan.seed}: enqueue of ${number} refused: ${result.error.message}`);
        }
        queued.push(number);
        enqueued += 1;
      }
      deepest = Math.max(deepest, enqueued - settled);
    } else if (random.chance(0.06) && (await adminAction(h, plan, random, queued, reports, dequeued))) {
      // An administrator dequeued or promoted a queued change.
    } else if (running.length > 0) {
      // A few results at once, in random order: they may reach one pass together.
      const batch = random.int(1, Math.min(4, running.length));
      for (let index = 0; index < batch; index += 1) {
        const [params] = running.splice(random.below(running.length), 1);
        if (!h.executor.running.has(params.buildUuid)) {
          continue; // canceled meanwhile
        }
        const retry = params.attempt < params.job.attempts && random.chance(0.05);
        const bad = failingInTree(params, plan.failing).length > 0;
        await h.executor.complete(params.buildUuid, {
          result: retry ? null : bad ? 'FAILURE' : 'SUCCESS',
          durationMs: random.int(100, 600_000),
        });
        finishedBuilds += 1;
      }
    } else {
      // Nothing to do for the driver: the engine must still have work, or the gate stalled.
      await h.settle();
      const more = pending.length > 0 && enqueued - settled < plan.maxOpen;
      if (settled < plan.order.length && h.executor.running.size === 0 && !more) {
        const status = await h.engine.status(h.tenant);
        throw new Error(
          `seed ${plan.seed}: the gate stalled with ${plan.order.length - settled} changes unreported: ` +
            JSON.stringify(status?.pipelines[0]?.changeQueues.map((queue) => queue.heads)),
        );
      }
      continue;
    }
    // Results sometimes arrive while a pass runs (no settle), sometimes after it.
    if (random.chance(0.7)) {
      await h.settle();
    }
    if (options.log && steps % 500 === 0) {
      options.log(`step ${steps}: ${enqueued} enqueued, ${settled} reported`);
    }
  }
  await h.settle();
  const testedOn = new Map<number, number[]>();
  for (const params of h.executor.started) {
    const own = params.changes[0].number;
    if (own !== null) {
      testedOn.set(
        own,
        params.mergeItems.map((item) => item.number).filter((number): number is number => number !== null),
      );
    }
  }
  return {
    reports,
    dequeued,
    testedOn,
    merged: [...h.merger.mergedOrder],
    figures: {
      changes: plan.order.length,
      failing: plan.failing.size,
      window: (plan.layout.pipelines[0] as EnginePipeline).window,
      buildsStarted: h.executor.started.length,
      buildsFinished: finishedBuilds,
      buildsCanceled: h.executor.canceled.length,
      steps,
      deepestQueue: deepest,
      durationMs: Date.now() - started,
    },
  };
}

/**
 * What is wrong with an outcome: each good change reported SUCCESS and merged once (MERGE_FAILURE
 * and never merged when its merge is refused), each failing one FAILURE and never merged, a
 * dequeued one neither reported nor merged; and each merged change tested on exactly changes
 * merged before it.
 */
export function randomGateMistakes(plan: RandomGatePlan, outcome: RandomGateOutcome): string[] {
  const mistakes: string[] = [];
  const merges = new Map<number, number>();
  for (const number of outcome.merged) {
    merges.set(number, (merges.get(number) ?? 0) + 1);
  }
  for (const number of plan.order) {
    const results = outcome.reports.get(number) ?? [];
    const mergedTimes = merges.get(number) ?? 0;
    if (outcome.dequeued.has(number)) {
      if (results.length > 0 || mergedTimes > 0) {
        mistakes.push(`${number}: dequeued, but reported ${JSON.stringify(results)}, merged ${mergedTimes} times`);
      }
      continue;
    }
    const expected = plan.failing.has(number) ? 'FAILURE' : plan.refused.has(number) ? 'MERGE_FAILURE' : 'SUCCESS';
    if (results.length !== 1 || results[0] !== expected || mergedTimes !== (expected === 'SUCCESS' ? 1 : 0)) {
      mistakes.push(
        `${number}: reported ${JSON.stringify(results)}, merged ${mergedTimes} times (expected ${expected})`,
      );
    }
  }
  for (const [position, number] of outcome.merged.entries()) {
    const before = new Set(outcome.merged.slice(0, position));
    const foreign = (outcome.testedOn.get(number) ?? []).filter((other) => other !== number && !before.has(other));
    if (foreign.length > 0) {
      mistakes.push(`${number}: merged after a test on a state holding ${foreign.join(', ')}, which were not merged`);
    }
  }
  return mistakes;
}
