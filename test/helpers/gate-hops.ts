/**
 * How long each hand-over between roles took, read from the store (docs/operations.md#wake-ups):
 * an admin enqueue from its commit to the pass that handled it (API -> scheduler), a build
 * request from its commit to its claim (scheduler -> executor), a build result from its commit
 * to the pass that applied it (executor -> scheduler). A pass's time is when it started, so a
 * hop is the wait for the role that acts next. Every process of a test runs on one host clock.
 */
import type { Knex } from 'knex';

export interface GateHops {
  /** Milliseconds per admin enqueue, API -> scheduler. */
  enqueueToPass: number[];
  /** Milliseconds per build request, scheduler -> executor. */
  requestToClaim: number[];
  /** Milliseconds per build result, executor -> scheduler. */
  resultToPass: number[];
}

const ms = (from: Date | string, to: Date | string): number => new Date(to).getTime() - new Date(from).getTime();

/** The hops of tenant `tenant` whose first event was stored at or after `since`. */
export async function gateHops(knex: Knex, tenant: string, since = new Date(0)): Promise<GateHops> {
  const events: Array<{ event_type: string; created: Date; processed: Date | null }> = await knex('engine_events')
    .where({ tenant })
    .where('created', '>=', since)
    .whereIn('event_type', ['enqueue', 'build-completed'])
    .whereNotNull('processed')
    .select('event_type', 'created', 'processed');
  const requests: Array<{ created: Date; started: Date | null }> = await knex('build_requests')
    .where({ tenant })
    .where('created', '>=', since)
    .whereNotNull('started')
    .select('created', 'started');
  const of = (type: string): number[] =>
    events.filter((row) => row.event_type === type).map((row) => ms(row.created, row.processed as Date));
  return {
    enqueueToPass: of('enqueue'),
    requestToClaim: requests.map((row) => ms(row.created, row.started as Date)),
    resultToPass: of('build-completed'),
  };
}

/** The median of `samples` (NaN when empty). */
export function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor((sorted.length - 1) / 2)];
}
