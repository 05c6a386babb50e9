/**
 * Quantiles read from duration histograms (docs/analytics.md#duration-quantiles): a run is read
 * as its bin's geometric middle, so a quantile lies within 2.5% plus 0.5 s of percentile_cont's.
 */
import { BIN_RATIO, binValue, histogramQuantile } from '../../../src/store/repositories/analytics-durations';

/** The bin of `seconds` as migration 0029's analytics_duration_bin computes it. */
const binOf = (seconds: number): number => (seconds < 1 ? 0 : 1 + Math.floor(Math.log(seconds) / Math.log(BIN_RATIO)));

function histogram(values: number[]): Array<{ bin: number; runs: number }> {
  const counts = new Map<number, number>();
  for (const value of values) {
    counts.set(binOf(value), (counts.get(binOf(value)) ?? 0) + 1);
  }
  return [...counts.entries()].sort(([a], [b]) => a - b).map(([bin, runs]) => ({ bin, runs }));
}

function type7(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (sorted.length - 1) * p;
  const low = Math.floor(rank);
  return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (rank - low);
}

describe('duration histograms', () => {
  it('reads a bin as its geometric middle', () => {
    expect(binValue(0)).toBe(0.5);
    expect(binValue(binOf(100))).toBeGreaterThanOrEqual(100 / Math.sqrt(BIN_RATIO));
    expect(binValue(binOf(100))).toBeLessThanOrEqual(100 * Math.sqrt(BIN_RATIO));
    expect(binValue(1)).toBeCloseTo(Math.sqrt(BIN_RATIO), 10);
  });

  it('interpolates between the runs at rank (n − 1)p + 1 as percentile_cont does', () => {
    // Two runs far apart: the median is half way between the two bins' values.
    const bins = histogram([10, 1000]);
    expect(histogramQuantile(bins, 0.5)).toBeCloseTo((binValue(binOf(10)) + binValue(binOf(1000))) / 2, 10);
    expect(histogramQuantile(bins, 0.9)).toBeCloseTo(
      binValue(binOf(10)) + 0.9 * (binValue(binOf(1000)) - binValue(binOf(10))),
      10,
    );
    expect(histogramQuantile(histogram([42]), 0.9)).toBe(binValue(binOf(42)));
  });

  it('stays within 2.5% plus 0.5 s of the exact quantiles', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let trial = 0; trial < 200; trial += 1) {
      const n = 1 + Math.floor(random() * 60);
      const values = Array.from({ length: n }, () => (random() < 0.1 ? random() : Math.exp(random() * 9)));
      for (const p of [0.5, 0.9]) {
        const exact = type7(values, p);
        expect(Math.abs(histogramQuantile(histogram(values), p) - exact)).toBeLessThanOrEqual(0.025 * exact + 0.5);
      }
    }
  });
});
