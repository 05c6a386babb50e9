/**
 * From engine status deltas to what one `queueEvents` subscriber receives
 * (docs/live.md#what-is-sent): the changes that pass its filters (`pipeline`, `change`) and touch
 * a field it selects. Subscribers with the same filters and selection receive the very same
 * value object, so its execution and serialisation are shared (docs/live.md#across-processes).
 */
import type { EngineDelta } from '../../src/engine/event-bus';
import type { StatusChange } from '../../src/engine/status-diff';
import type { QueueDeltaValue } from '../queue-events';
import type { ChangeInterest } from './change-interest';
import type { StatusSnapshot } from './status-snapshot';

type StatusDelta = Extract<EngineDelta, { type: 'queue-delta' }>;

/**
 * Values already made for the most recent deltas, per filter key. Bounded rather than tied to
 * the delta: a value holds its executions and their JSON (shared-event-execution.ts), which must
 * not live as long as the delta stays in the replay buffer. An older delta replayed to a
 * resuming client gets a new value.
 */
const shared = new Map<StatusDelta, Map<string, QueueDeltaValue | null>>();
const SHARED_DELTAS = 64;

function value(delta: StatusDelta, changes: StatusChange[]): QueueDeltaValue | null {
  return changes.length === 0 ? null : { shared: true, rootArgumentsResolved: true, delta, changes };
}

function pipelineOf(change: StatusChange): string | null {
  if (change.kind === 'tenant') {
    return null;
  }
  return change.kind === 'pipeline' ? change.name : change.pipeline;
}

/** The delta for subscribers of `pipeline` (all when null) with this interest; null when nothing is left. */
export function sharedQueueDelta(
  delta: StatusDelta,
  pipeline: string | null,
  interest: ChangeInterest,
): QueueDeltaValue | null {
  const key = `${pipeline ?? ''}\n${interest.key}`;
  let values = shared.get(delta);
  if (!values) {
    values = new Map();
    shared.set(delta, values);
    if (shared.size > SHARED_DELTAS) {
      const oldest = shared.keys().next().value;
      if (oldest !== undefined) {
        shared.delete(oldest);
      }
    }
  }
  const cached = values.get(key);
  if (cached !== undefined) {
    return cached;
  }
  const changes = delta.changes.filter((change) => {
    const of = pipelineOf(change);
    return (pipeline === null || of === null || of === pipeline) && interest.wants(change);
  });
  const result = value(delta, changes);
  values.set(key, result);
  return result;
}

/**
 * Keeps only the changes and notices of the items carrying one change (`N,P` or a new
 * revision); a subscriber of one change has filter state of its own.
 */
export class ChangeFilter {
  private readonly items = new Set<string>();

  constructor(private readonly change: string) {}

  seed(snapshot: StatusSnapshot | null): void {
    for (const pipeline of snapshot?.status.pipelines ?? []) {
      for (const queue of pipeline.changeQueues) {
        for (const item of queue.items) {
          if (item.refs.some((ref) => ref.id === this.change)) {
            this.items.add(item.id);
          }
        }
      }
    }
  }

  private accepts(change: StatusChange): boolean {
    switch (change.kind) {
      case 'item-enqueued':
        if (change.item.refs.some((ref) => ref.id === this.change)) {
          this.items.add(change.item.id);
        }
        return this.items.has(change.item.id);
      case 'item-dequeued': {
        const known = this.items.has(change.itemId);
        this.items.delete(change.itemId);
        return known;
      }
      case 'item-moved':
      case 'item-changed':
      case 'job-changed':
      case 'item-reported':
        return this.items.has(change.itemId);
      default:
        return false;
    }
  }

  /** This subscriber's delta (not shared: the filter has state). */
  filter(delta: StatusDelta, pipeline: string | null, interest: ChangeInterest): QueueDeltaValue | null {
    const changes = delta.changes.filter((change) => {
      const of = pipelineOf(change);
      // Every change goes through `accepts`, which follows the items of the change.
      return this.accepts(change) && (pipeline === null || of === null || of === pipeline) && interest.wants(change);
    });
    return value(delta, changes);
  }
}
