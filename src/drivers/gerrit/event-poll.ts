/**
 * Events by polling where SSH is not allowed (docs/gerrit.md#events-by-polling): a connection
 * without `sshkey` reads no `gerrit stream-events`, so every `poll_interval` seconds (and once at
 * start, as a stream's catch-up runs when it opens) the events Gerrit would have streamed are read
 * over REST and stored as if they had come over a stream: the changes updated since the newest
 * stored event (src/drivers/gerrit/catch-up.ts), the changes merged since the previous poll
 * (`status:merged -age:<N>s`, as the reference's poller asks without a stream) and the branches
 * that moved (src/drivers/gerrit/ref-catch-up.ts). Each event is stored under the hash of its
 * text, so what two polls (or two processes) read is stored once; one process polls a connection
 * at a time (src/drivers/gerrit/poll-lease.ts).
 */
import type { TimerClock } from '../../engine/ports/clock';
import { PeriodicTask } from '../../engine/ports/periodic-task';
import type { ConnectionEventRepository } from '../../store/repositories/connection-events';
import type { DriverLog } from '../driver';
import { catchUp, missedEvents } from './catch-up';
import type { GerritClient } from './client';
import { eventDelivery } from './events';
import type { EventsLog } from './events-log';
import type { PollLease } from './poll-lease';
import { catchUpRefs } from './ref-catch-up';

/** Seconds added to the time since the previous merged-change poll: the reference allows 4 for the request. */
const MERGED_AGE_SLACK_S = 4;

/**
 * Store a `change-merged` for each change merged within `ageSeconds` (the same event the catch-up
 * makes of it, so one read by both is stored once); resolves with how many were newly stored.
 */
export async function pollMergedChanges(options: {
  connection: string;
  client: GerritClient;
  events: ConnectionEventRepository;
  ageSeconds: number;
  now(): Date;
  stopped(): boolean;
}): Promise<number> {
  const { connection, events } = options;
  const merged = await options.client.queryAll(`status:merged -age:${options.ageSeconds}s`);
  let stored = 0;
  for (const event of merged.flatMap((change) => missedEvents(change, -1)).filter((e) => e.type === 'change-merged')) {
    if (options.stopped()) {
      break;
    }
    const row = {
      connection,
      delivery: eventDelivery(JSON.stringify(event)),
      eventType: 'change-merged',
      payload: event,
    };
    stored += (await events.record(row, options.now())) ? 1 : 0;
  }
  return stored;
}

/**
 * The event poll of one connection without `sshkey`: every `intervalMs` from the end of the
 * previous one (the runtime starts it with a poll at once), each only while this process holds
 * the connection's poll lease. Its `stop()` waits for a poll under way, which stores nothing once
 * `stopped()`.
 */
export function eventsPoller(options: {
  connection: string;
  client: GerritClient;
  events: ConnectionEventRepository;
  lease: PollLease;
  intervalMs: number;
  /** The projects of the connection in the tenants loaded now (their branches are compared). */
  projects(): string[];
  now(): Date;
  log: DriverLog;
  stopped(): boolean;
  /** Something was stored: the intake may look now. */
  onStored(): void;
  timers?: TimerClock;
  /** Gerrit's events-log plugin, read first where the connection allows it (src/drivers/gerrit/events-log.ts). */
  eventsLog?: EventsLog;
}): PeriodicTask {
  const { connection, log, lease } = options;
  /** When (the process's clock, ms) the previous merged-change poll asked; null before the first. */
  let lastMergedPoll: number | null = null;
  return new PeriodicTask({
    name: `Gerrit event poll of ${connection}`,
    intervalMs: options.intervalMs,
    tick: async () => {
      if (options.stopped() || !(await lease.hold())) {
        return;
      }
      // The events-log holds the stream's events (merges and ref updates too); else read the changes and branches.
      const logged = (await options.eventsLog?.catchUp(options)) ?? null;
      let stored = logged ?? (await catchUp({ ...options, startMark: true }));
      const asked = options.now().getTime();
      if (logged === null && lastMergedPoll !== null && !options.stopped()) {
        const ageSeconds = Math.ceil((asked - lastMergedPoll) / 1000) + MERGED_AGE_SLACK_S;
        stored += await pollMergedChanges({ ...options, ageSeconds });
      }
      lastMergedPoll = asked;
      if (logged === null) {
        stored += await catchUpRefs({ ...options, projects: options.stopped() ? [] : options.projects() });
      }
      if (stored > 0 && !options.stopped()) {
        options.onStored();
      }
    },
    onError: (err) => log.warn({ connection, err }, 'Gerrit events not polled'),
    clock: options.timers,
    // A poll writes to the database: the stop waits until it ended (as for a catch-up).
    stopWaitMs: null,
  });
}
