/**
 * Gerrit's events-log plugin (docs/gerrit.md#the-events-log-plugin): the plugin keeps the events
 * Gerrit streams and answers them over REST (`GET /plugins/events-log/events/?t1=<time>`, the
 * stream's JSON objects one after another). Where the connection's `events_log` allows it, what a
 * stream missed (src/drivers/gerrit/runtime.ts) and what a poll without `sshkey` reads
 * (src/drivers/gerrit/event-poll.ts) is read from it first and stored as the stream's lines are
 * (src/drivers/gerrit/stream.ts storeStreamLine), in the plugin's order; the REST change catch-up
 * (src/drivers/gerrit/catch-up.ts) is the fallback when the plugin is absent or fails.
 */
import type { ConnectionEventRepository } from '../../store/repositories/connection-events';
import type { DriverLog } from '../driver';
import { GerritApiError, type GerritClient } from './client';
import { storeStreamLine } from './stream';

/** The connection's `events_log`: read the plugin (true), never (false), or if a first request finds it (auto). */
export type EventsLogSetting = boolean | 'auto';

/**
 * How far before the newest stored event the plugin is asked from (seconds): it reads `t1` in its
 * server's time zone (docs/gerrit.md#the-events-log-plugin), so a day covers any zone; what is
 * older than the newest stored second is left out by its `eventCreatedOn`.
 */
export const EVENTS_LOG_MARGIN_S = 24 * 60 * 60;

/** How many of the newest stored events are read to find where to read from, and what is stored already. */
const RECENT_EVENTS = 200;

/** The plugin's time format (`yyyy-MM-dd HH:mm:ss`) of seconds since the epoch (UTC). */
export function eventsLogTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The JSON objects of the plugin's answer, each as its text: one a line as `stream-events` writes
 * them, or spread over lines (its documentation shows them so); an XSSI prefix is skipped.
 */
export function eventsLogObjects(text: string): string[] {
  const objects: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') {
        i += 1;
      } else if (c === '"') {
        inString = false;
      }
    } else if (c === '"' && depth > 0) {
      inString = true;
    } else if (c === '{') {
      start = depth === 0 ? i : start;
      depth += 1;
    } else if (c === '}' && depth > 0) {
      depth -= 1;
      if (depth === 0) {
        objects.push(text.slice(start, i + 1));
      }
    }
  }
  return objects;
}

/** A JSON text of a value with its keys sorted: the same event in another key order or layout is known. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(canonical).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, v]) => `${JSON.stringify(key)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** One connection's events-log reader; it remembers (per process) a plugin `auto` found absent. */
export class EventsLog {
  private absent = false;

  constructor(
    private readonly connection: string,
    private readonly client: GerritClient,
    private readonly setting: EventsLogSetting,
    private readonly log: DriverLog,
  ) {}

  /**
   * Store the events the plugin kept since the newest stored event of the connection, in its
   * order; resolves with how many were newly stored, or null when it was not read (off, absent,
   * failed, or no event stored yet): the caller catches up over REST.
   */
  async catchUp(options: {
    events: ConnectionEventRepository;
    now(): Date;
    stopped?(): boolean;
  }): Promise<number | null> {
    const { connection, log } = this;
    if (this.setting === false || this.absent) {
      return null;
    }
    const recent = await options.events.recentPayloads(connection, RECENT_EVENTS);
    const times = recent.map((event) => event.eventCreatedOn).filter((t): t is number => typeof t === 'number');
    if (times.length === 0) {
      return null;
    }
    const since = Math.max(...times);
    let text: string;
    try {
      const t1 = encodeURIComponent(eventsLogTime(since - EVENTS_LOG_MARGIN_S));
      text = await this.client.requestText('GET', `/plugins/events-log/events/?t1=${t1}`);
    } catch (err) {
      const missing = err instanceof GerritApiError && err.status === 404;
      if (missing && this.setting === 'auto') {
        this.absent = true;
        log.info({ connection }, 'Gerrit has no events-log plugin: missed events are read from changes');
      } else {
        log.warn({ connection, err }, 'Gerrit events-log not read: missed events are read from changes');
      }
      return null;
    }
    const known = new Set(
      recent
        .filter((event) => typeof event.eventCreatedOn === 'number' && event.eventCreatedOn >= since)
        .map(canonical),
    );
    let stored = 0;
    for (const object of eventsLogObjects(text)) {
      if (options.stopped?.()) {
        break;
      }
      let payload: Record<string, unknown>;
      try {
        payload = JSON.parse(object) as Record<string, unknown>;
      } catch {
        log.warn({ connection, object: object.slice(0, 200) }, 'Gerrit events-log sent an object that is no JSON');
        continue;
      }
      const at = payload.eventCreatedOn;
      // Older than the newest stored second, or of it and stored already (another key order or layout).
      if ((typeof at === 'number' && at < since) || known.has(canonical(payload))) {
        continue;
      }
      const line = object.includes('\n') ? JSON.stringify(payload) : object;
      if ((await storeStreamLine({ connection, events: options.events, now: options.now, log }, line)) === true) {
        stored += 1;
      }
    }
    if (stored > 0) {
      log.info({ connection, stored, since }, 'Gerrit events missed stored from the events-log');
    }
    return stored;
  }
}
