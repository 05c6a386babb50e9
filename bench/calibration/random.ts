/** Seeded randomness for the calibration benchmarks: the same seed gives the same history. */

/** A uniform generator in [0, 1) (mulberry32). */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A log-normal draw with this median and spread (sigma of the logarithm). */
export function logNormal(random: () => number, median: number, sigma: number): number {
  const u = Math.max(random(), 1e-12);
  const v = random();
  const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return median * Math.exp(sigma * normal);
}

/** The job mix of the generated histories: typical CI jobs, one of them heavy-tailed, one flaky. */
export interface JobProfile {
  name: string;
  /** Median seconds of a successful run on master. */
  median: number;
  sigma: number;
  failure: number;
  retry: number;
}

export const JOB_MIX: readonly JobProfile[] = [
  { name: 'unit', median: 300, sigma: 0.2, failure: 0.08, retry: 0.02 },
  { name: 'lint', median: 60, sigma: 0.15, failure: 0.03, retry: 0 },
  { name: 'integration', median: 900, sigma: 0.3, failure: 0.12, retry: 0.06 },
  { name: 'docs', median: 120, sigma: 0.5, failure: 0.04, retry: 0 },
];

/** A run's outcome and seconds: failed runs stop part way (20% to 100% of a successful run). */
export function drawRun(
  random: () => number,
  profile: JobProfile,
  slowdown: number,
): { outcome: 'SUCCESS' | 'FAILURE' | 'RETRY'; seconds: number } {
  const seconds = logNormal(random, profile.median * slowdown, profile.sigma);
  const roll = random();
  if (roll < profile.retry) {
    return { outcome: 'RETRY', seconds: seconds * (0.1 + 0.4 * random()) };
  }
  if (roll < profile.retry + profile.failure) {
    return { outcome: 'FAILURE', seconds: seconds * (0.2 + 0.8 * random()) };
  }
  return { outcome: 'SUCCESS', seconds };
}

export function percentOf(count: number, total: number): string {
  return total === 0 ? 'n/a' : `${((100 * count) / total).toFixed(1)}%`;
}
