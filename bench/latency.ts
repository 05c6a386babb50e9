/** Latency measurement for benchmarks: run an async operation many times, report percentiles. */

export interface LatencyReport {
  name: string;
  iterations: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** Runs `operation` `warmup` times unmeasured, then `iterations` times sequentially (ms per run). */
export async function measureLatency(
  name: string,
  operation: () => Promise<void>,
  iterations: number,
  warmup = 20,
): Promise<LatencyReport> {
  for (let index = 0; index < warmup; index += 1) {
    await operation();
  }
  const samples: number[] = [];
  for (let index = 0; index < iterations; index += 1) {
    const started = process.hrtime.bigint();
    await operation();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  samples.sort((a, b) => a - b);
  const at = (fraction: number): number =>
    samples[Math.min(samples.length - 1, Math.ceil(fraction * samples.length) - 1)];
  return {
    name,
    iterations,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: samples[samples.length - 1],
    mean: samples.reduce((sum, sample) => sum + sample, 0) / samples.length,
  };
}

/** One aligned line per report. */
export function formatReport(report: LatencyReport): string {
  const ms = (value: number): string => `${value.toFixed(1)} ms`.padStart(10);
  return `${report.name.padEnd(44)} n=${report.iterations}  p50${ms(report.p50)}  p95${ms(report.p95)}  p99${ms(report.p99)}  max${ms(report.max)}`;
}
