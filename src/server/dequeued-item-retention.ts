/**
 * The retention of dequeued items (docs/gating.md#what-is-kept-of-dequeued-items): an item that
 * left its pipeline keeps its `queue_items` row and its `queue_item_jobs` rows so that "why did
 * my change leave" stays answerable, so without this both tables only grow. Each run deletes the
 * items dequeued more than 14 days ago with their job rows, in batches, oldest first
 * (./row-retention.ts). Queued items are never deleted, whatever their age.
 */
import { EngineStateRepository } from '../store/repositories/engine-state';
import { RowRetention, type RowRetentionOptions } from './row-retention';

/** How long a dequeued item is kept: "why did my change leave" is asked days later, not months. */
export const DEQUEUED_RETENTION_MS = 14 * 24 * 60 * 60_000;
/** Between the end of one run and the start of the next. */
export const DEQUEUED_RETENTION_INTERVAL_MS = 60 * 60_000;

export class DequeuedItemRetention extends RowRetention {
  constructor(options: RowRetentionOptions) {
    const state = new EngineStateRepository(options.knex);
    super(options, {
      name: 'dequeued item retention',
      rows: 'dequeued items',
      retentionMs: DEQUEUED_RETENTION_MS,
      intervalMs: DEQUEUED_RETENTION_INTERVAL_MS,
      prune: (before, limit) => state.pruneDequeued(before, limit),
    });
  }
}
