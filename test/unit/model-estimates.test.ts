/**
 * The estimate and range model (docs/analytics.md#job-estimates, docs/analytics.md#item-etas):
 * quantile curves, the fallback between levels, a job's remaining time given how long it has run,
 * the overdue state, and item ranges from position, window and the risk of the items ahead.
 */
import {
  chooseEstimate,
  curveProbability,
  curveValue,
  durationCurve,
  estimateOf,
  recentMean,
  type DurationEstimate,
} from '../../src/model/estimates';
import { jobEta, queueEta, type EtaItem } from '../../src/model/eta';

const TENS = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];

function estimate(outcomes: string, successes: number[], failures: number[] = []): DurationEstimate {
  return estimateOf('branch', { outcomes, successes, failures });
}

describe('duration curves', () => {
  it('interpolates quantiles at rank (n + 1)p between the sorted runs', () => {
    const rounded = durationCurve([100, 10, 50, 90, 30, 20, 40, 60, 80, 70])?.map((value) => +value.toFixed(9));
    expect(rounded).toEqual([10, 11, 22, 33, 44, 55, 66, 77, 88, 99, 100, 100]);
    expect(durationCurve([])).toBeNull();
  });

  it('reads probabilities and values back from a curve', () => {
    const curve = durationCurve(TENS) as number[];
    expect(curveProbability(curve, 44)).toBeCloseTo(0.4);
    expect(curveProbability(curve, 5)).toBe(0);
    expect(curveProbability(curve, 100)).toBe(1);
    expect(curveValue(curve, 0.7)).toBeCloseTo(77);
    expect(curveValue(curve, 0.94)).toBeCloseTo(99.8);
  });

  it('counts failures over finished runs and retries over all runs', () => {
    const counted = estimate('sssfr', [1, 2, 3], [4]);
    expect(counted).toMatchObject({ runs: 5, successes: 3, failures: 1, failureProbability: 0.25 });
    expect(counted.retryProbability).toBeCloseTo(0.2);
    expect(counted.failure).toEqual(Array(12).fill(4));
  });

  it('averages the newest ten successful runs for the reference-style estimate', () => {
    expect(recentMean({ outcomes: '', successes: [1000, ...TENS], failures: [] })).toBe(55);
    expect(recentMean(undefined)).toBeNull();
  });
});

describe('choosing a level', () => {
  const runs = (count: number) => ({ outcomes: 's'.repeat(count), successes: TENS.slice(0, count), failures: [] });

  it('takes the narrowest level with five successful runs', () => {
    const chosen = chooseEstimate([
      { level: 'branch', samples: runs(3) },
      { level: 'project', samples: runs(6) },
      { level: 'job', samples: runs(10) },
    ]);
    expect(chosen?.basis).toBe('project');
  });

  it('falls back to the level with the most successful runs, and to none without runs', () => {
    expect(
      chooseEstimate([
        { level: 'branch', samples: runs(2) },
        { level: 'project', samples: undefined },
        { level: 'job', samples: runs(4) },
      ])?.basis,
    ).toBe('job');
    expect(chooseEstimate([{ level: 'branch', samples: undefined }])).toBeNull();
    // Only failures: an estimate without a duration curve, but with its failure probability.
    const failing = chooseEstimate([{ level: 'branch', samples: { outcomes: 'ff', successes: [], failures: [5] } }]);
    expect(failing).toMatchObject({ success: null, failureProbability: 1 });
  });
});

describe('job ranges', () => {
  const unit = estimate('s'.repeat(10), TENS);
  const start = 1_000_000;
  const at = (elapsed: number) => (start + elapsed) * 1000;
  const running = { name: 'unit', dependencies: [], voting: true, startTime: start, result: null };

  it('is the p50 and p90 of successful runs before the job starts', () => {
    expect(jobEta({ ...running, startTime: null }, unit, at(0))).toEqual({
      remainingP50: 55_000,
      remainingP90: 99_000,
      overdue: false,
      overdueBy: null,
    });
  });

  it('is conditioned on how long a running job has run', () => {
    // 44 s is the 40th percentile: the median of what is left is the 70th percentile (77 s).
    expect(jobEta(running, unit, at(44))).toEqual({
      remainingP50: 33_000,
      remainingP90: 55_800,
      overdue: false,
      overdueBy: null,
    });
  });

  it('says by how much a job is over its usual duration instead of a frozen estimate', () => {
    expect(jobEta(running, unit, at(99.5))).toEqual({
      remainingP50: 500,
      remainingP90: 500,
      overdue: true,
      overdueBy: 500,
    });
    // Longer than any run in its history: nothing left to predict, still overdue.
    expect(jobEta(running, unit, at(120))).toEqual({
      remainingP50: 0,
      remainingP90: 0,
      overdue: true,
      overdueBy: 21_000,
    });
  });

  it('adds the cost of a likely retry', () => {
    // One attempt in five is retried: a mixture of one run (p50 55 s, p90 99 s) and two (110 s, 198 s).
    const flaky = estimate('ssssr', TENS);
    expect(jobEta({ ...running, startTime: null }, flaky, at(0))).toMatchObject({
      remainingP50: 61_111,
      remainingP90: 110_000,
    });
  });

  it('is zero once finished and unknown without history', () => {
    expect(jobEta({ ...running, result: 'SUCCESS' }, unit, at(10))).toMatchObject({ remainingP50: 0, overdue: false });
    expect(jobEta(running, null, at(10))).toMatchObject({ remainingP50: null, remainingP90: null });
  });
});

describe('item ranges', () => {
  // Jobs fail one run in five; a whole item of the pipeline takes 550 s (p50) to 990 s (p90).
  const unit = estimate('ssssf', TENS);
  const item = estimate(
    's'.repeat(10),
    TENS.map((value) => value * 10),
  );
  const queued = (id: string, itemAhead: string | null, active: boolean, jobs: string[]): EtaItem => ({
    id,
    itemAhead,
    live: true,
    active,
    failingReasons: [],
    jobs: jobs.map((name) => ({ name, dependencies: [], voting: true, startTime: null, result: null })),
  });
  const options = { window: 2, dependent: true, nowMs: 0, job: () => unit, item: () => item };

  it('waits for the window, the items ahead and their failure risk', () => {
    const [a, b, c] = queueEta(
      [queued('a', null, true, ['unit']), queued('b', 'a', true, ['unit']), queued('c', 'b', false, [])],
      options,
    );
    expect(a).toMatchObject({ remainingP50: 55_000, remainingP90: 99_000, resetProbability: 0, overdue: false });
    expect(a?.failureProbability).toBeCloseTo(0.2);
    // b: a fails one time in five and resets it; a rerun then starts half way to a's report
    // (27.5 s) at the p50 and at its report (99 s) at the p90: a mixture of {55, 99} and {82.5, 198}.
    expect(b).toMatchObject({ remainingP50: 57_391, remainingP90: 107_609 });
    expect(b?.resetProbability).toBeCloseTo(0.2);
    // c enters the window when a reports, then runs as the pipeline's items do: not running
    // yet, a failure ahead costs it nothing but the wait, which a's range holds.
    expect(c).toMatchObject({ remainingP50: 605_000, remainingP90: 1_089_000, failureProbability: 0 });
    expect(c?.resetProbability).toBeCloseTo(0.36);
  });

  it('follows job dependencies and leaves items of independent pipelines alone', () => {
    const chained = queued('a', null, true, ['build', 'test']);
    chained.jobs = [chained.jobs[0], { ...chained.jobs[1], dependencies: ['build'] }];
    const [alone] = queueEta([chained], { ...options, dependent: false });
    expect(alone).toMatchObject({ remainingP50: 110_000, remainingP90: 198_000, resetProbability: 0 });
    expect(alone?.failureProbability).toBeCloseTo(0.36);
  });

  it('is unknown without history and null for non-live items', () => {
    const [context, live] = queueEta(
      [{ ...queued('a', null, true, ['unit']), live: false }, queued('b', 'a', true, ['unit'])],
      { ...options, job: () => null, item: () => null },
    );
    expect(context).toBeNull();
    expect(live).toMatchObject({ remainingP50: null, remainingP90: null });
  });

  it('marks an item whose running job is overdue', () => {
    const late = queued('a', null, true, ['unit']);
    late.jobs = [{ ...late.jobs[0], startTime: 0 }];
    expect(queueEta([late], { ...options, nowMs: 200_000 })[0]?.overdue).toBe(true);
  });
});
