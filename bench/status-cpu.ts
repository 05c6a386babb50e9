/**
 * Status computation cost by queue size (docs/live.md#status-computation): the tenant status
 * model (`computeTenantStatus`, what every status read, REST poll and `tenantStatus` push
 * starts from) for one gate queue of 100, 200, 400, 800 and 1,600 items, in process. Reports
 * p50 and p95 of the wall time per computation, the time per item and the growth from one
 * size to the next (linear: about 2x per doubling).
 *
 *   npx tsx bench/status-cpu.ts [runs]
 */
import { performance } from 'node:perf_hooks';
import { computeTenantStatus } from '../src/engine/status';
import { syntheticStatusInput } from './synthetic-status';

const SIZES = [100, 200, 400, 800, 1000, 1600];
const RUNS = Number(process.argv[2] ?? 40);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function main(): void {
  const rows: Array<Record<string, number>> = [];
  let previous: number | null = null;
  for (const size of SIZES) {
    const input = syntheticStatusInput(size);
    for (let i = 0; i < 5; i += 1) {
      computeTenantStatus(input); // warm-up
    }
    const times: number[] = [];
    const cpuStart = process.cpuUsage();
    for (let i = 0; i < RUNS; i += 1) {
      const started = performance.now();
      computeTenantStatus(input);
      times.push(performance.now() - started);
    }
    const cpu = process.cpuUsage(cpuStart);
    times.sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    rows.push({
      items: size,
      p50Ms: Number(p50.toFixed(2)),
      p95Ms: Number(percentile(times, 95).toFixed(2)),
      cpuMsPerRun: Number(((cpu.user + cpu.system) / 1000 / RUNS).toFixed(2)),
      usPerItem: Number(((p50 * 1000) / size).toFixed(2)),
      growth: previous === null ? 1 : Number((p50 / previous).toFixed(2)),
    });
    previous = p50;
  }
  console.table(rows);
}

main();
