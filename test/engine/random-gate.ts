/**
 * A randomized gate run over the engine harness (docs/gating.md#resets): changes of two projects
 * sharing one dependent queue are enqueued in a random order under a random window, and a
 * scripted executor finishes random running builds, a few at a time, in random order. Every job
 * decides by content, as a job script reading its workspace would: it fails when the speculative
 * state it was given (the build's merge items) holds any failing change, its own or one ahead.
 * So an item whose result counts although it was tested with a failing change ahead fails a good
 * change, which the run's checks catch. The seed fixes every decision.
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
  let reportedChanges = 0;
  h.bus.subscribe(h.tenant, (delta) => {
    if (delta.type === 'item-enqueued') {
      changeOfItem.set(delta.itemUuid, Number(delta.changeIds[0].split(',')[0]));
    } else if (delta.type === 'item-reported' && delta.pipeline === 'gate') {
      const change = changeOfItem.get(delta.itemUuid) ?? -1;
      const list = reports.get(change) ?? [];
      if (list.length === 0) {
        reportedChanges += 1;
      }
      reports.set(change, [...list, delta.result]);
    }
  });
  for (const number of plan.order) {
    h.changes.add(plan.projectOf.get(number) ?? RANDOM_GATE_PROJECTS[0], number);
  }
  const pending = [...plan.order];
  let enqueued = 0;
  let finishedBuilds = 0;
  let steps = 0;
  let deepest = 0;
  const maxSteps = options.maxSteps ?? plan.order.length * 200;
  while (reportedChanges < plan.order.length) {
    steps += 1;
    if (steps > maxSteps) {
      throw new Error(`seed ${plan.seed}: no end after ${maxSteps} steps (${reportedChanges} reported)`);
    }
    const running = [...h.executor.running.values()];
    const canEnqueue = pending.length > 0 && enqueued - reportedChanges < plan.maxOpen;
    if (canEnqueue && (running.length === 0 || random.chance(0.5))) {
      // One to three changes at once, up to the bound of open changes.
      const burst = Math.min(random.int(1, 3), pending.length, plan.maxOpen - (enqueued - reportedChanges));
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
        enqueued += 1;
      }
      deepest = Math.max(deepest, enqueued - reportedChanges);
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
      const more = pending.length > 0 && enqueued - reportedChanges < plan.maxOpen;
      if (reportedChanges < plan.order.length && h.executor.running.size === 0 && !more) {
        const status = await h.engine.status(h.tenant);
        throw new Error(
          `seed ${plan.seed}: the gate stalled with ${plan.order.length - reportedChanges} changes unreported: ` +
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
      options.log(`step ${steps}: ${enqueued} enqueued, ${reportedChanges} reported`);
    }
  }
  await h.settle();
  return {
    reports,
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

/** What is wrong with an outcome: each good change reported SUCCESS and merged once, each failing one FAILURE and never merged. */
export function randomGateMistakes(plan: RandomGatePlan, outcome: RandomGateOutcome): string[] {
  const mistakes: string[] = [];
  const merges = new Map<number, number>();
  for (const number of outcome.merged) {
    merges.set(number, (merges.get(number) ?? 0) + 1);
  }
  for (const number of plan.order) {
    const expected = plan.failing.has(number) ? 'FAILURE' : 'SUCCESS';
    const results = outcome.reports.get(number) ?? [];
    const mergedTimes = merges.get(number) ?? 0;
    if (results.length !== 1 || results[0] !== expected || mergedTimes !== (expected === 'SUCCESS' ? 1 : 0)) {
      mistakes.push(
        `${number}: reported ${JSON.stringify(results)}, merged ${mergedTimes} times (expected ${expected})`,
      );
    }
  }
  return mistakes;
}
