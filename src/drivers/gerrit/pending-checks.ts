/**
 * `pending-check` events from Gerrit's checks plugin (docs/gerrit.md#pending-checks): the plugin
 * sends no stream event, so, as the reference reads them (when a stream opens and every 30 s), the checks still pending
 * (`NOT_STARTED`) of each checker a `pending-check` trigger names are asked for
 * (`GET /plugins/checks/checks.pending/?query=checker:<uuid>+(state:NOT_STARTED)`), a trigger's
 * `scheme` naming every enabled checker of that scheme (`GET /plugins/checks/checkers/`). Each pending
 * check is stored as the event the reference makes of it, under the hash of its text: a check
 * still pending the next time is stored once.
 */
import type { TimerClock } from '../../engine/ports/clock';
import { PeriodicTask } from '../../engine/ports/periodic-task';
import type { ConnectionEventRepository } from '../../store/repositories/connection-events';
import type { DriverLog } from '../driver';
import type { GerritClient } from './client';
import type { PollLease } from './poll-lease';
import { eventDelivery, type StreamEvent } from './events';

/** What `checks.pending` answers: a patch set and its pending checks by checker. */
interface PendingChecksJson {
  patch_set?: { repository?: string; change_number?: number; patch_set_id?: number };
  pending_checks?: Record<string, { state?: string }>;
}

/** The checkers the `pending-check` filters name: their `uuid`s, and their `scheme`s. */
export function watchedCheckers(filters: ReadonlyArray<Record<string, unknown>>): {
  uuids: string[];
  schemes: string[];
} {
  const uuids = new Set<string>();
  const schemes = new Set<string>();
  for (const filter of filters) {
    const events = ([] as unknown[]).concat(filter.event);
    if (!events.includes('pending-check')) {
      continue;
    }
    for (const [key, into] of [
      ['uuid', uuids],
      ['scheme', schemes],
    ] as const) {
      for (const value of ([] as unknown[]).concat(filter[key] ?? [])) {
        if (typeof value === 'string') {
          into.add(value);
        }
      }
    }
  }
  return { uuids: [...uuids].sort(), schemes: [...schemes].sort() };
}

/** The `pending-check` event of one pending check, as the reference makes it (the scheme is the uuid's part before `:`). */
export function pendingCheckEvent(pending: PendingChecksJson, uuid: string): StreamEvent | null {
  const patchSet = pending.patch_set;
  if (patchSet?.repository === undefined || patchSet.change_number === undefined) {
    return null;
  }
  return {
    type: 'pending-check',
    uuid,
    scheme: uuid.split(':')[0],
    change: { project: patchSet.repository, number: patchSet.change_number },
    patchSet: { number: patchSet.patch_set_id },
  };
}

/**
 * Store the checks pending for the checkers `filters` name (none named: nothing is asked);
 * resolves with how many were newly stored.
 */
export async function catchUpPendingChecks(options: {
  connection: string;
  client: GerritClient;
  events: ConnectionEventRepository;
  filters: ReadonlyArray<Record<string, unknown>>;
  now(): Date;
  log: DriverLog;
  /** The service is stopping: ask about no further checker, store nothing more. */
  stopped?(): boolean;
}): Promise<number> {
  const { connection, client, events } = options;
  const { uuids, schemes } = watchedCheckers(options.filters);
  const checkers = new Set(uuids);
  if (schemes.length > 0) {
    const configured = await client.request<Array<{ uuid?: string; status?: string }>>(
      'GET',
      '/plugins/checks/checkers/',
    );
    for (const checker of configured ?? []) {
      if (checker.status === 'ENABLED' && checker.uuid !== undefined && schemes.includes(checker.uuid.split(':')[0])) {
        checkers.add(checker.uuid);
      }
    }
  }
  let stored = 0;
  for (const checker of [...checkers].sort()) {
    if (options.stopped?.()) {
      break;
    }
    const query = encodeURIComponent(`checker:${checker} (state:NOT_STARTED)`);
    const answer = await client.request<PendingChecksJson[]>('GET', `/plugins/checks/checks.pending/?query=${query}`);
    for (const pending of answer ?? []) {
      for (const uuid of Object.keys(pending.pending_checks ?? {})) {
        const event = pendingCheckEvent(pending, uuid);
        // Once stopping, nothing more is stored (the answer of a request in flight included).
        if (event === null || options.stopped?.()) {
          continue;
        }
        const line = JSON.stringify(event);
        const row = { connection, delivery: eventDelivery(line), eventType: 'pending-check', payload: event };
        if (await events.record(row, options.now())) {
          stored += 1;
        }
      }
    }
  }
  if (stored > 0) {
    options.log.info({ connection, stored }, 'Gerrit pending checks stored');
  }
  return stored;
}

/** Milliseconds between two polls of the pending checks: the reference's poller polls every 30 s (not configurable). */
export const PENDING_CHECKS_POLL_MS = 30_000;

/**
 * The poll of one connection's pending checks (docs/gerrit.md#pending-checks): every 30 s from the
 * end of the previous poll, the first one interval after `start()`; the checkers are those the
 * `pending-check` triggers of the tenants loaded at that moment name (none: nothing is asked).
 * Its `stop()` waits for a poll under way, which asks about no further checker once `stopped()`.
 * With a `lease`, only the process holding it polls (the reference elects one poller per connection).
 */
export function pendingChecksPoller(options: {
  connection: string;
  client: GerritClient;
  events: ConnectionEventRepository;
  filters(): ReadonlyArray<Record<string, unknown>>;
  now(): Date;
  log: DriverLog;
  stopped(): boolean;
  /** Something was stored: the intake may look now. */
  onStored(): void;
  /** Polled only while this process holds it (one poller per connection, src/drivers/gerrit/poll-lease.ts). */
  lease?: PollLease;
  timers?: TimerClock;
}): PeriodicTask {
  const { connection, log } = options;
  return new PeriodicTask({
    name: `Gerrit pending checks of ${connection}`,
    intervalMs: PENDING_CHECKS_POLL_MS,
    tick: async () => {
      if (options.stopped() || (options.lease !== undefined && !(await options.lease.hold()))) {
        return;
      }
      const stored = await catchUpPendingChecks({ ...options, filters: options.filters() });
      if (stored > 0 && !options.stopped()) {
        options.onStored();
      }
    },
    onError: (err) => log.warn({ connection, err }, 'Gerrit pending checks not read'),
    clock: options.timers,
    // A poll writes to the database: the stop waits until it ended (as for a catch-up).
    stopWaitMs: null,
  });
}
