/** Waiting for work in flight with a deadline (a scheduler's stop, a pass waiting for the work runner's round). */

/** True when `work` settles by `until` (epoch ms; never without it), false at `until`. */
export function settledBy(work: Promise<unknown>, until: number | undefined): Promise<boolean> {
  if (until === undefined) {
    return work.then(
      () => true,
      () => true,
    );
  }
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), Math.max(0, until - Date.now()));
    const settled = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    work.then(settled, settled);
  });
}
