/**
 * Long CPU-bound work written once as a generator whose `yield`s are checkpoints, run either to the
 * end at once (`runSteps`, for callers that must stay synchronous) or in slices that give the event
 * loop back between them (`runStepsSliced`), so that building a layout of thousands of jobs does not
 * hold up `/health/ready`, the API or the engine (docs/operations.md#configuration-reloads).
 */
import { performance } from 'node:perf_hooks';

/** Work that may pause at each `yield` and finally returns `T`. */
export type Steps<T> = Generator<void, T, void>;

/** How long one slice may run before the event loop gets a turn, by default. */
export const DEFAULT_SLICE_MS = 10;

/** Run the work to its end without pausing. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done === true) {
      return next.value;
    }
  }
}

/**
 * Run the work in slices of about `sliceMs`: at the first checkpoint after a slice's time is up,
 * the rest waits for `setImmediate`, i.e. after pending I/O callbacks (HTTP requests, database
 * answers, timers). A slice can overrun by the work between two checkpoints, so checkpoints are
 * placed between items of bounded size (a file, a configuration item, a job).
 */
export async function runStepsSliced<T>(steps: Steps<T>, sliceMs = DEFAULT_SLICE_MS): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done === true) {
      return next.value;
    }
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}
