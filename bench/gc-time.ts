/**
 * Garbage collection of this process while a benchmark runs (bench/engine-gate.ts): the pauses'
 * total and the count of young-generation collections, read from `gc` performance entries. The
 * count follows the bytes allocated (a young generation of a fixed size fills once per
 * collection), so it shows an allocation change in runs whose items/s the machine's load blurs.
 */
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

export class GcTime {
  private pauseMs = 0;
  private young = 0;
  private readonly observer = new PerformanceObserver((list) => this.count(list.getEntries()));

  start(): void {
    this.pauseMs = 0;
    this.young = 0;
    this.observer.observe({ entryTypes: ['gc'] });
  }

  /** Stops observing; the pauses (ms) and young-generation collections since `start`. */
  stop(): { pauseMs: number; youngCollections: number } {
    this.count(this.observer.takeRecords());
    this.observer.disconnect();
    return { pauseMs: this.pauseMs, youngCollections: this.young };
  }

  private count(entries: readonly PerformanceEntry[]): void {
    for (const entry of entries) {
      this.pauseMs += entry.duration;
      this.young += isYoung(entry) ? 1 : 0;
    }
  }
}

function isYoung(entry: PerformanceEntry): boolean {
  const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
  return kind === constants.NODE_PERFORMANCE_GC_MINOR;
}
