/**
 * The retention of processed engine events (docs/gating.md#what-is-kept-of-engine-events): every
 * `engine_events` row stays after its scheduler processed it, so without this the table only
 * grows. Each run deletes the events processed more than a day ago, in batches, oldest first
 * (./row-retention.ts). Unprocessed events are never deleted, whatever their age.
 */
import { EngineEventRepository } from '../store/repositories/engine-events';
import { RowRetention, type RowRetentionOptions } from './row-retention';

/** How long a processed event is kept: its outcome stays readable for operations that wait on it. */
export const EVENT_RETENTION_MS = 24 * 60 * 60_000;
/** Between the end of one run and the start of the next. */
export const EVENT_RETENTION_INTERVAL_MS = 10 * 60_000;

export type EngineEventRetentionOptions = RowRetentionOptions;

export class EngineEventRetention extends RowRetention {
  constructor(options: EngineEventRetentionOptions) {
    const events = new EngineEventRepository(options.knex);
    super(options, {
      name: 'engine event retention',
      rows: 'engine events',
      retentionMs: EVENT_RETENTION_MS,
      intervalMs: EVENT_RETENTION_INTERVAL_MS,
      prune: (before, limit) => events.pruneProcessed(before, limit),
    });
  }
}
