/** Window arithmetic of dependent queues (docs/gating.md#windows). */
import type { WindowParams } from '../model/pipeline-state';

/**
 * The largest window a queue stores (its column is a 32-bit integer). Without a ceiling an
 * exponential increase would pass it after about 30 merges and every pass would fail to save
 * the queue (docs/gating.md#windows); a window this large already admits every item.
 */
export const MAX_WINDOW = 2_147_483_647;

/** The window after an item merged: linear adds the factor, exponential multiplies; capped by the ceiling. */
export function increasedWindow(current: number, params: WindowParams): number {
  if (current === 0) {
    return 0;
  }
  const next = params.increaseType === 'linear' ? current + params.increaseFactor : current * params.increaseFactor;
  return Math.min(params.ceiling ?? MAX_WINDOW, next, MAX_WINDOW);
}

/** The window after an item failed its jobs: linear subtracts, exponential divides; never below the floor. */
export function decreasedWindow(current: number, params: WindowParams): number {
  if (current === 0) {
    return 0;
  }
  const next =
    params.decreaseType === 'linear' ? current - params.decreaseFactor : Math.floor(current / params.decreaseFactor);
  return Math.max(params.floor, next);
}

/** Whether the item at `index` (0 = head, counting non-live items) is inside the window. */
export function insideWindow(index: number, window: number): boolean {
  return window === 0 || index < window;
}
