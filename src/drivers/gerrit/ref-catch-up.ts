/**
 * Catching up on branch updates missed while no stream listened
 * (docs/gerrit.md#events-missed-while-no-stream-listened): Gerrit keeps no record of pushes that
 * its REST API answers, so each time a stream opens Sluice lists each project's branches and
 * compares them with what it knew: the branch heads it stored the last time (a
 * `sluice-branch-heads` event, which makes no trigger events) and the `ref-updated` events
 * stored since. A branch that moved, appeared or went is stored as the `ref-updated` Gerrit
 * would have sent; then the heads are stored again.
 */
import type { ConnectionEventRepository } from '../../store/repositories/connection-events';
import type { DriverLog } from '../driver';
import type { GerritClient } from './client';
import { eventDelivery, type StreamEvent } from './events';

/** The stored event type of a project's branch heads. */
export const BRANCH_HEADS = 'sluice-branch-heads';

const DELETED = '0000000000000000000000000000000000000000';

/** A ref name as `refs/heads/...` (older Gerrit versions send a bare branch name). */
function fullRef(name: string): string {
  return name.startsWith('refs/') ? name : `refs/heads/${name}`;
}

/** The branch heads known of a project: the stored ones, moved by the `ref-updated` events stored after them. */
async function knownHeads(
  events: ConnectionEventRepository,
  connection: string,
  project: string,
): Promise<Record<string, string> | null> {
  const stored = await events.newestOfProject(connection, BRANCH_HEADS, project);
  if (stored === null) {
    return null;
  }
  const heads = { ...(stored.payload.heads as Record<string, string>) };
  for (const payload of (await events.payloadsAfter(connection, 'ref-updated', stored.id)) as StreamEvent[]) {
    const update = payload.refUpdate;
    if (update?.project !== project || update.refName === undefined || update.newRev === undefined) {
      continue;
    }
    const ref = fullRef(update.refName);
    if (!ref.startsWith('refs/heads/')) {
      continue;
    }
    if (update.newRev === DELETED) {
      delete heads[ref];
    } else {
      heads[ref] = update.newRev;
    }
  }
  return heads;
}

/** What a caught-up `ref-updated` carries to be told from the stream's (src/drivers/gerrit/stream.ts). */
export const CAUGHT_UP = 'sluiceCaughtUp';

/**
 * Whether a `ref-updated` the stream delivers was caught up already: the newest stored update of
 * its ref is a caught-up one with the same revisions (a push the branch listing saw while the
 * stream reconnected). Called under the connection's ref lock.
 */
export async function caughtUpAlready(
  events: ConnectionEventRepository,
  connection: string,
  event: StreamEvent,
): Promise<boolean> {
  const update = event.refUpdate;
  if (update?.project === undefined || update.refName === undefined) {
    return false;
  }
  const names = [...new Set([update.refName, fullRef(update.refName)])];
  const newest = (await events.newestRefUpdate(connection, update.project, names)) as StreamEvent | null;
  return (
    newest?.[CAUGHT_UP] === true &&
    newest.refUpdate?.oldRev === update.oldRev &&
    newest.refUpdate?.newRev === update.newRev
  );
}

/**
 * Store the `ref-updated` events of the branches of `projects` that moved since the heads last
 * stored (none stored yet for a project: its heads become the starting point), then the heads;
 * resolves with how many events were stored. The known heads are read before the branches are
 * listed and again, under the connection's ref lock, before anything is stored: a ref the stream
 * moved in between is left to the stream (its event is stored; the listing may predate it), so a
 * push made while the stream reconnects is stored once and never reversed.
 */
export async function catchUpRefs(options: {
  connection: string;
  client: GerritClient;
  events: ConnectionEventRepository;
  projects: readonly string[];
  now(): Date;
  log: DriverLog;
  /** The service is stopping: compare no further project. */
  stopped?(): boolean;
}): Promise<number> {
  const { connection, client, events } = options;
  let stored = 0;
  for (const project of options.projects) {
    if (options.stopped?.()) {
      break;
    }
    const before = await knownHeads(events, connection, project);
    const current = await client.branches(project);
    stored += await events.withRefLock(connection, async (locked) => {
      const store = async (payload: StreamEvent & { type: string }) =>
        locked.record(
          { connection, delivery: eventDelivery(JSON.stringify(payload)), eventType: payload.type, payload },
          options.now(),
        );
      const known = await knownHeads(locked, connection, project);
      const heads = { ...current };
      let count = 0;
      for (const ref of known === null ? [] : [...new Set([...Object.keys(known), ...Object.keys(current)])].sort()) {
        const knownRev = known?.[ref];
        if (before?.[ref] !== knownRev) {
          // Moved by the stream since the first look: its event stands, its head is the known one.
          if (knownRev === undefined) {
            delete heads[ref];
          } else {
            heads[ref] = knownRev;
          }
          continue;
        }
        const oldRev = knownRev ?? DELETED;
        const newRev = current[ref] ?? DELETED;
        if (oldRev !== newRev) {
          const update = { type: 'ref-updated', refUpdate: { project, refName: ref, oldRev, newRev } };
          const at = Math.floor(options.now().getTime() / 1000);
          count += (await store({ ...update, eventCreatedOn: at, [CAUGHT_UP]: true })) ? 1 : 0;
        }
      }
      await store({ type: BRANCH_HEADS, project, heads });
      return count;
    });
  }
  if (stored > 0) {
    options.log.info({ connection, stored }, 'Gerrit branch updates missed while no stream listened stored');
  }
  return stored;
}
