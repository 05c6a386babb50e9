/**
 * Calibrated duration estimates (docs/analytics.md#job-estimates): the recent runs of a job (or
 * of a pipeline's items) summarised as a quantile curve of successful durations, one of failed
 * durations, and the probabilities that a run fails or is retried. Pure functions over the
 * samples the store keeps (`duration_samples`), shared by the server, the dashboard and the
 * calibration benchmark so all three compute the same numbers.
 */

/** The probabilities a duration curve holds a value for, in order. */
export const QUANTILE_POINTS: readonly number[] = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1];
const P50 = 5;
const P90 = 9;

/** How many samples of each kind (outcomes, successful and failed durations) a key keeps. */
export const SAMPLE_LIMIT = 50;

/** Successful runs a level needs before it is used instead of a broader one. */
export const MIN_SUCCESSES = 5;

/** How many of the newest successful runs the reference-style average (`estimatedTime`) takes. */
export const MEAN_SAMPLE = 10;

/** What the samples of a key are for, from the narrowest to the broadest. */
export type JobEstimateLevel = 'branch' | 'project' | 'job';
export type ItemEstimateLevel = 'item-project' | 'item-pipeline';
export type EstimateLevel = JobEstimateLevel | ItemEstimateLevel;

export const JOB_LEVELS: readonly JobEstimateLevel[] = ['branch', 'project', 'job'];
export const ITEM_LEVELS: readonly ItemEstimateLevel[] = ['item-project', 'item-pipeline'];

/**
 * The samples kept for one key, newest last: `outcomes` has one letter per run (`s` success,
 * `f` failure, `r` retried attempt), `successes` and `failures` the durations in seconds.
 */
export interface DurationSamples {
  outcomes: string;
  successes: readonly number[];
  failures: readonly number[];
}

/** One key of the samples: a job on a project and branch, or a pipeline's items of a project. */
export interface SampleKey {
  level: EstimateLevel;
  /** Canonical project name; '' at the `job` and `item-pipeline` levels. */
  project: string;
  /** Branch at the `branch` level ('' for a ref without a branch); '' elsewhere. */
  branch: string;
  /** Job name, or pipeline name for item levels. */
  name: string;
}

/** A duration estimate as clients see it (docs/analytics.md#job-estimates). */
export interface DurationEstimate {
  /** The level the numbers come from. */
  basis: EstimateLevel;
  /** Runs counted for the probabilities (successes, failures and retried attempts). */
  runs: number;
  successes: number;
  failures: number;
  /** Seconds at each of `QUANTILE_POINTS` of the successful runs; null without one. */
  success: number[] | null;
  /** The same of the failed runs. */
  failure: number[] | null;
  /** Failed runs over finished runs (successes + failures); 0 without any. */
  failureProbability: number;
  /** Retried attempts over all runs counted; 0 without any. */
  retryProbability: number;
}

/** The key text of a sample key (for maps). */
export function sampleKeyText(key: SampleKey): string {
  return `${key.level}\n${key.project}\n${key.branch}\n${key.name}`;
}

/** The keys of a job of a change on `project` and `branch` (null: a ref without a branch), narrowest first. */
export function jobSampleKeys(project: string, branch: string | null, job: string): SampleKey[] {
  return [
    { level: 'branch', project, branch: branch ?? '', name: job },
    { level: 'project', project, branch: '', name: job },
    { level: 'job', project: '', branch: '', name: job },
  ];
}

/** The keys of an item of `pipeline` whose first change is on `project`, narrowest first. */
export function itemSampleKeys(pipeline: string, project: string): SampleKey[] {
  return [
    { level: 'item-project', project, branch: '', name: pipeline },
    { level: 'item-pipeline', project: '', branch: '', name: pipeline },
  ];
}

/**
 * The value at probability `p` of sorted values, interpolated at rank (n + 1)p (Hyndman and
 * Fan's type 6): the value a next run stays below with probability p when runs are alike, so
 * a p90 from ten runs is not too low (the usual type 7 would cover about 83% of next runs).
 * Ranks outside the values take the smallest or largest.
 */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) {
    return Number.NaN;
  }
  const h = Math.min(Math.max((sorted.length + 1) * p - 1, 0), sorted.length - 1);
  const low = Math.floor(h);
  const high = Math.min(low + 1, sorted.length - 1);
  return sorted[low] + (h - low) * (sorted[high] - sorted[low]);
}

/** The curve of values at `QUANTILE_POINTS`; null without values. */
export function durationCurve(values: readonly number[]): number[] | null {
  if (values.length === 0) {
    return null;
  }
  const sorted = [...values].sort((a, b) => a - b);
  return QUANTILE_POINTS.map((p) => quantile(sorted, p));
}

/** The probability of a curve below `value` (0 below its minimum, 1 at or over its maximum). */
export function curveProbability(curve: readonly number[], value: number): number {
  if (value < curve[0]) {
    return 0;
  }
  if (value >= curve[curve.length - 1]) {
    return 1;
  }
  for (let i = 0; i + 1 < curve.length; i += 1) {
    if (value < curve[i + 1]) {
      const span = curve[i + 1] - curve[i];
      const fraction = span > 0 ? (value - curve[i]) / span : 1;
      return QUANTILE_POINTS[i] + fraction * (QUANTILE_POINTS[i + 1] - QUANTILE_POINTS[i]);
    }
  }
  return 1;
}

/** The value of a curve at probability `p`. */
export function curveValue(curve: readonly number[], p: number): number {
  if (p <= 0) {
    return curve[0];
  }
  for (let i = 0; i + 1 < QUANTILE_POINTS.length; i += 1) {
    if (p <= QUANTILE_POINTS[i + 1]) {
      const fraction = (p - QUANTILE_POINTS[i]) / (QUANTILE_POINTS[i + 1] - QUANTILE_POINTS[i]);
      return curve[i] + fraction * (curve[i + 1] - curve[i]);
    }
  }
  return curve[curve.length - 1];
}

export function curveP50(curve: readonly number[]): number {
  return curve[P50];
}

export function curveP90(curve: readonly number[]): number {
  return curve[P90];
}

/** The estimate of one key's samples (its `basis` is the key's level). */
export function estimateOf(level: EstimateLevel, samples: DurationSamples): DurationEstimate {
  let successes = 0;
  let failures = 0;
  let retries = 0;
  for (const outcome of samples.outcomes) {
    if (outcome === 's') {
      successes += 1;
    } else if (outcome === 'f') {
      failures += 1;
    } else if (outcome === 'r') {
      retries += 1;
    }
  }
  const finished = successes + failures;
  const runs = finished + retries;
  return {
    basis: level,
    runs,
    successes,
    failures,
    success: durationCurve(samples.successes),
    failure: durationCurve(samples.failures),
    failureProbability: finished === 0 ? 0 : failures / finished,
    retryProbability: runs === 0 ? 0 : retries / runs,
  };
}

/**
 * The estimate of a key from its levels, narrowest first (docs/analytics.md#job-estimates): the
 * first level with at least `MIN_SUCCESSES` successful runs; otherwise the level with the most
 * successful runs; otherwise (no success anywhere) the level with the most runs; null when no
 * level has a run.
 */
export function chooseEstimate(
  levels: ReadonlyArray<{ level: EstimateLevel; samples: DurationSamples | undefined }>,
): DurationEstimate | null {
  const estimates = levels
    .filter((entry): entry is { level: EstimateLevel; samples: DurationSamples } => entry.samples !== undefined)
    .map((entry) => estimateOf(entry.level, entry.samples))
    .filter((estimate) => estimate.runs > 0 || estimate.success !== null);
  const enough = estimates.find((estimate) => estimate.successes >= MIN_SUCCESSES && estimate.success !== null);
  if (enough) {
    return enough;
  }
  let best: DurationEstimate | null = null;
  for (const estimate of estimates) {
    const better =
      best === null ||
      estimate.successes > best.successes ||
      (estimate.successes === best.successes && estimate.runs > best.runs);
    if (better) {
      best = estimate;
    }
  }
  return best;
}

/** The reference-style estimate: the average of the newest `MEAN_SAMPLE` successful durations; null without one. */
export function recentMean(samples: DurationSamples | undefined): number | null {
  const recent = samples?.successes.slice(-MEAN_SAMPLE) ?? [];
  if (recent.length === 0) {
    return null;
  }
  return recent.reduce((sum, value) => sum + value, 0) / recent.length;
}
