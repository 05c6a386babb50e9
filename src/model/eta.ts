/**
 * Time ranges of jobs and queue items (docs/analytics.md#item-etas): how long a job still runs
 * (p50 and p90 of its recent successful runs, given how long it has run), whether it is overdue,
 * and when an item should report, from its jobs, its place in the queue, the window and the
 * failure risk of the items ahead. Pure and linear in the items: the server computes the status
 * with it and the dashboard computes the same numbers from the same fields with its own clock.
 */
import { curveP50, curveP90, curveProbability, curveValue, type DurationEstimate } from './estimates';

/** What the ranges read of a job (the status fields of the same names; times in epoch seconds). */
export interface EtaJob {
  name: string;
  dependencies: readonly string[];
  voting: boolean;
  startTime: number | null | undefined;
  result: string | null | undefined;
  paused?: boolean | null;
}

/** What the ranges read of an item. */
export interface EtaItem {
  id: string;
  itemAhead: string | null | undefined;
  live: boolean;
  active: boolean;
  failingReasons: readonly string[];
  jobs: readonly EtaJob[];
}

/** A job's range: milliseconds left at p50 and p90 (null: no history), and its overdue state. */
export interface JobEta {
  remainingP50: number | null;
  remainingP90: number | null;
  /** It has run longer than the p90 of its successful runs. */
  overdue: boolean;
  /** Milliseconds over that p90 (its usual duration); null unless overdue. */
  overdueBy: number | null;
}

/** An item's range: milliseconds until it reports at p50 and p90 (null: unknown). */
export interface ItemEta {
  remainingP50: number | null;
  remainingP90: number | null;
  /** The chance that its own jobs fail (1 once one has failed). */
  failureProbability: number;
  /** The chance that an item ahead fails and resets it (dependent pipelines). */
  resetProbability: number;
  /** One of its running jobs is overdue. */
  overdue: boolean;
}

export interface QueueEtaOptions<I extends EtaItem = EtaItem> {
  /** The queue's active window (0: unlimited). */
  window: number;
  /** Items report in queue order and an item ahead that fails resets those behind (a dependent pipeline). */
  dependent: boolean;
  nowMs: number;
  job: (item: I, job: I['jobs'][number]) => DurationEstimate | null;
  item: (item: I) => DurationEstimate | null;
}

interface Range {
  p50: number;
  p90: number;
}

/**
 * The probability of a range below `t`: the range is read as a distribution spread evenly
 * around its p50 so that 90% of it lies below its p90 (docs/analytics.md#item-etas).
 */
function rangeProbability(range: Range, t: number): number {
  const spread = range.p90 - range.p50;
  if (spread <= 0) {
    return t >= range.p50 ? 1 : 0;
  }
  return Math.min(1, Math.max(0, 0.5 + (0.4 * (t - range.p50)) / spread));
}

/**
 * The p50 and p90 of "`base`, or with probability `p` `risky` instead" (a retry, a gate reset;
 * docs/analytics.md#item-etas): the times at which the mixture's probability reaches 0.5 and
 * 0.9, found by bisection.
 */
function withRisk(base: Range, p: number, risky: Range): Range {
  if (p <= 0) {
    return base;
  }
  const mixed = (t: number): number => (1 - p) * rangeProbability(base, t) + p * rangeProbability(risky, t);
  const at = (q: number): number => {
    let low = 0;
    let high = 2 * Math.max(base.p90, risky.p90, base.p50, risky.p50) + 1;
    for (let step = 0; step < 40; step += 1) {
      const middle = (low + high) / 2;
      if (mixed(middle) >= q) {
        high = middle;
      } else {
        low = middle;
      }
    }
    return high;
  };
  return { p50: at(0.5), p90: at(0.9) };
}

/** A range plus a whole run of `run`: what a retry or a rerun from scratch costs. */
function plusRun(range: Range, run: Range): Range {
  return { p50: range.p50 + run.p50, p90: range.p90 + run.p90 };
}

/** Seconds a job still runs (null: no history), and by how much (seconds) it is over its p90. */
function jobRange(
  job: EtaJob,
  estimate: DurationEstimate | null,
  nowMs: number,
  fromScratch: boolean,
): { range: Range | null; overBy: number | null } {
  if (!fromScratch && job.result !== null && job.result !== undefined) {
    return { range: { p50: 0, p90: 0 }, overBy: null };
  }
  if (!fromScratch && job.paused) {
    return { range: { p50: 0, p90: 0 }, overBy: null };
  }
  const curve = estimate?.success ?? null;
  if (estimate === null || curve === null) {
    return { range: null, overBy: null };
  }
  const p50 = curveP50(curve);
  const started = !fromScratch && job.startTime !== null && job.startTime !== undefined;
  if (!started) {
    const run = { p50, p90: curveP90(curve) };
    return { range: withRisk(run, estimate.retryProbability, plusRun(run, run)), overBy: null };
  }
  const elapsed = Math.max(0, nowMs / 1000 - (job.startTime as number));
  const overBy = elapsed > curveP90(curve) ? elapsed - curveP90(curve) : null;
  const reached = curveProbability(curve, elapsed);
  const left = (q: number): number =>
    reached >= 1 ? 0 : Math.max(0, curveValue(curve, reached + (1 - reached) * q) - elapsed);
  const left50 = left(0.5);
  const left90 = left(0.9);
  const rest = { p50: left50, p90: left90 };
  return {
    range: withRisk(rest, estimate.retryProbability, plusRun(rest, { p50, p90: curveP90(curve) })),
    overBy,
  };
}

/** A job's range at `nowMs` (docs/analytics.md#job-estimates). */
export function jobEta(job: EtaJob, estimate: DurationEstimate | null, nowMs: number): JobEta {
  const { range, overBy } = jobRange(job, estimate, nowMs, false);
  return {
    remainingP50: range === null ? null : Math.round(range.p50 * 1000),
    remainingP90: range === null ? null : Math.round(range.p90 * 1000),
    overdue: overBy !== null,
    overdueBy: overBy === null ? null : Math.round(overBy * 1000),
  };
}

/** The longest path through an item's jobs (by their dependencies) of each job's range; null when one is unknown. */
function criticalPath<I extends EtaItem>(
  item: I,
  options: QueueEtaOptions<I>,
  fromScratch: boolean,
): { range: Range | null; overdue: boolean } {
  const byName = new Map(item.jobs.map((job) => [job.name, job]));
  const done = new Map<string, Range | null>();
  let overdue = false;
  const finish = (job: EtaJob, depth: number): Range | null => {
    const known = done.get(job.name);
    if (known !== undefined || done.has(job.name)) {
      return known ?? null;
    }
    const own = jobRange(job, options.job(item, job), options.nowMs, fromScratch);
    overdue = overdue || own.overBy !== null;
    let result: Range | null = own.range;
    for (const name of job.dependencies) {
      const dependency = byName.get(name);
      if (dependency === undefined || depth > item.jobs.length || result === null) {
        continue;
      }
      const before = finish(dependency, depth + 1);
      result = before === null ? null : { p50: before.p50 + result.p50, p90: before.p90 + result.p90 };
    }
    done.set(job.name, result);
    return result;
  };
  let total: Range | null = { p50: 0, p90: 0 };
  for (const job of item.jobs) {
    const range = finish(job, 0);
    total =
      total === null || range === null
        ? null
        : { p50: Math.max(total.p50, range.p50), p90: Math.max(total.p90, range.p90) };
  }
  return { range: total, overdue };
}

/** Seconds an item still runs from now, and from scratch (after a reset); null when unknown. */
function itemRanges<I extends EtaItem>(
  item: I,
  options: QueueEtaOptions<I>,
): { now: Range | null; scratch: Range | null; overdue: boolean } {
  const itemEstimate = options.item(item)?.success ?? null;
  const fallback = itemEstimate === null ? null : { p50: curveP50(itemEstimate), p90: curveP90(itemEstimate) };
  if (item.jobs.length === 0) {
    return { now: fallback, scratch: fallback, overdue: false };
  }
  const current = criticalPath(item, options, false);
  const scratch = criticalPath(item, options, true).range ?? fallback;
  return { now: current.range ?? fallback, scratch, overdue: current.overdue };
}

/** The chance that an item's own jobs fail (docs/analytics.md#item-etas). */
function itemFailure<I extends EtaItem>(item: I, options: QueueEtaOptions<I>): number {
  if (!item.live) {
    return 0;
  }
  if (item.failingReasons.length > 0) {
    return 1;
  }
  if (item.jobs.length === 0) {
    return options.item(item)?.failureProbability ?? 0;
  }
  let passes = 1;
  for (const job of item.jobs) {
    if (job.voting && (job.result === null || job.result === undefined)) {
      passes *= 1 - (options.job(item, job)?.failureProbability ?? 0);
    }
  }
  return 1 - passes;
}

/**
 * The ranges of a queue's items in queue order (null for items that do not report: non-live
 * ones). Linear in the items: each item reads only its own jobs and the already computed item
 * ahead and the item `window` places ahead.
 */
export function queueEta<I extends EtaItem>(items: readonly I[], options: QueueEtaOptions<I>): Array<ItemEta | null> {
  const finishes: Array<Range | null> = [];
  const byId = new Map<string, { finish: Range | null; survive: number; failure: number; live: boolean }>();
  const result: Array<ItemEta | null> = [];
  items.forEach((item, index) => {
    const ahead = item.itemAhead ? byId.get(item.itemAhead) : undefined;
    const failure = itemFailure(item, options);
    // The chance nothing ahead fails: the items ahead of the item ahead, times the item ahead.
    const survive = ahead === undefined ? 1 : ahead.survive * (ahead.live ? 1 - ahead.failure : 1);
    if (!item.live) {
      const finish = ahead?.finish ?? { p50: 0, p90: 0 };
      finishes.push(finish);
      byId.set(item.id, { finish, survive, failure, live: false });
      result.push(null);
      return;
    }
    const ranges = itemRanges(item, options);
    let start: Range | null = { p50: 0, p90: 0 };
    if (!item.active && options.window > 0) {
      start = index - options.window >= 0 ? (finishes[index - options.window] ?? null) : { p50: 0, p90: 0 };
    }
    const resetProbability = options.dependent ? 1 - survive : 0;
    let finish: Range | null = null;
    if (start !== null && ranges.now !== null) {
      finish = { p50: start.p50 + ranges.now.p50, p90: start.p90 + ranges.now.p90 };
      if (options.dependent && ahead !== undefined) {
        if (ahead.finish === null) {
          finish = null;
        } else {
          // A reset costs an item that runs: an item ahead fails, half way to its report at the
          // p50 (at its report at the p90), and this one runs again from there. An item outside
          // the window loses nothing; it waits for the items ahead, risks included.
          const rerun = ranges.scratch ?? ranges.now;
          const reset = { p50: ahead.finish.p50 / 2 + rerun.p50, p90: ahead.finish.p90 + rerun.p90 };
          const own = item.active ? withRisk(finish, resetProbability, reset) : finish;
          finish = { p50: Math.max(own.p50, ahead.finish.p50), p90: Math.max(own.p90, ahead.finish.p90) };
        }
      }
    }
    finishes.push(finish);
    byId.set(item.id, { finish, survive, failure, live: true });
    result.push({
      remainingP50: finish === null ? null : Math.round(finish.p50 * 1000),
      remainingP90: finish === null ? null : Math.round(finish.p90 * 1000),
      failureProbability: failure,
      resetProbability,
      overdue: ranges.overdue,
    });
  });
  return result;
}
