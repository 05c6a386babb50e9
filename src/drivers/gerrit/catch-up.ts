/**
 * Catching up on what Gerrit did while no stream listened (docs/gerrit.md#events-missed-while-no-stream-listened):
 * `gerrit stream-events` does not send again what it sent while nobody listened, so each time a
 * stream opens the changes updated since the newest stored event are read over the REST API and
 * the events they imply are stored as if they had come over the stream: `patchset-created` for
 * patch sets uploaded since, `comment-added` for review messages posted since (with the votes
 * their author cast at that moment), `change-merged` and `change-abandoned`. Each is stored under
 * the hash of its text, so catching up twice stores it once.
 */
import type { ConnectionEventRepository } from '../../store/repositories/connection-events';
import type { DriverLog } from '../driver';
import type { AccountJson, ChangeJson, GerritClient } from './client';
import { eventDelivery, type StreamEvent } from './events';

/** Seconds since the epoch of one of Gerrit's times (`2013-02-01 09:59:32.126000000`, UTC), or null. */
export function gerritSeconds(value: string | undefined): number | null {
  const match = value === undefined ? null : /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)/.exec(value);
  return match === null ? null : Date.parse(`${match[1]}T${match[2]}Z`) / 1000;
}

/** Gerrit's query time (`YYYY-MM-DD HH:MM:SS -0000`) of seconds since the epoch. */
function queryTime(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')} -0000`;
}

function account(json: AccountJson | undefined): Record<string, unknown> | undefined {
  return json === undefined ? undefined : { name: json.name, email: json.email, username: json.username };
}

/** The events a change read over REST implies since `since` (seconds, exclusive), oldest first. */
export function missedEvents(change: ChangeJson, since: number): StreamEvent[] {
  const revisions = Object.entries(change.revisions ?? {}).sort(([, a], [, b]) => a._number - b._number);
  const base = {
    project: change.project,
    branch: change.branch,
    id: change.change_id,
    number: change._number,
    subject: change.subject,
    owner: account(change.owner),
    status: change.status,
  };
  const patchSetOf = (number: number | undefined) => {
    const found = revisions.find(([, r]) => r._number === number) ?? revisions.at(-1);
    return found === undefined ? undefined : { number: found[1]._number, revision: found[0], ref: found[1].ref };
  };
  const events: Array<StreamEvent & { eventCreatedOn: number }> = [];
  const add = (at: number | null, event: StreamEvent) => {
    if (at !== null && at > since) {
      events.push({ ...event, change: base, eventCreatedOn: at });
    }
  };
  for (const [, revision] of revisions) {
    add(gerritSeconds(revision.created), {
      type: 'patchset-created',
      uploader: account(revision.uploader),
      patchSet: patchSetOf(revision._number),
    });
  }
  for (const message of change.messages ?? []) {
    const at = gerritSeconds(message.date);
    const approvals = Object.entries(change.labels ?? {}).flatMap(([label, detail]) =>
      (detail.all ?? [])
        .filter((vote) => vote._account_id === message.author?._account_id && gerritSeconds(vote.date) === at)
        .map((vote) => ({ type: label, description: label, value: String(vote.value ?? 0) })),
    );
    add(at, {
      type: 'comment-added',
      author: account(message.author),
      comment: message.message ?? '',
      approvals,
      patchSet: patchSetOf(message._revision_number),
    });
  }
  if (change.status === 'MERGED') {
    add(gerritSeconds(change.submitted), { type: 'change-merged', patchSet: patchSetOf(undefined) });
  } else if (change.status === 'ABANDONED') {
    add(gerritSeconds(change.updated), { type: 'change-abandoned', patchSet: patchSetOf(undefined) });
  }
  return events.sort((a, b) => a.eventCreatedOn - b.eventCreatedOn);
}

/** How many of the newest stored events are read to find where to catch up from. */
const RECENT_EVENTS = 200;

/** What an event is, without its time and text: its type, change, patch set and who caused it. */
function identity(event: StreamEvent): string {
  const who = ['author', 'uploader', 'submitter', 'abandoner']
    .map((key) => (event[key] as { username?: string } | undefined)?.username)
    .find((name) => name !== undefined);
  return [event.type, event.change?.number, event.patchSet?.number, who ?? ''].join('|');
}

/**
 * Store the events of what Gerrit did from the newest stored event of the connection (none
 * stored yet: nothing to catch up on); resolves with how many were newly stored.
 */
export async function catchUp(options: {
  connection: string;
  client: GerritClient;
  events: ConnectionEventRepository;
  now(): Date;
  log: DriverLog;
}): Promise<number> {
  const { connection, client, events } = options;
  const recent = (await events.recentPayloads(connection, RECENT_EVENTS)) as StreamEvent[];
  const times = recent.map((event) => event.eventCreatedOn).filter((t): t is number => typeof t === 'number');
  if (times.length === 0) {
    return 0;
  }
  const since = Math.max(...times);
  // The newest stored second is read again (Gerrit's times are whole seconds): what was stored
  // from it is known by what it is and not stored twice.
  const known = new Set(recent.filter((event) => event.eventCreatedOn === since).map((event) => identity(event)));
  const changes = await client.queryAll(`after:"${queryTime(since)}"`);
  const missed = changes
    .flatMap((change) => missedEvents(change, since - 1))
    .filter((event) => event.eventCreatedOn !== since || !known.has(identity(event)));
  missed.sort((a, b) => (a.eventCreatedOn ?? 0) - (b.eventCreatedOn ?? 0));
  let stored = 0;
  for (const event of missed) {
    const line = JSON.stringify(event);
    const type = event.type ?? 'unknown';
    if (
      await events.record({ connection, delivery: eventDelivery(line), eventType: type, payload: event }, options.now())
    ) {
      stored += 1;
    }
  }
  if (stored > 0) {
    options.log.info({ connection, stored, since }, 'Gerrit events missed while no stream listened stored');
  }
  return stored;
}
