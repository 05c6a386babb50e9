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

/**
 * Store the `ref-updated` events of the branches of `projects` that moved since the heads last
 * stored (none stored yet for a project: its heads become the starting point), then the heads;
 * resolves with how many events were stored.
 */
export async function catchUpRefs(options: {
  connection: string;
  client: GerritClient;
  events: ConnectionEventRepository;
  projects: readonly string[];
  now(): Date;
  log: DriverLog;
}): Promise<number> {
  const { connection, client, events } = options;
  let stored = 0;
  const store = async (payload: StreamEvent & { type: string }) =>
    events.record(
      { connection, delivery: eventDelivery(JSON.stringify(payload)), eventType: payload.type, payload },
      options.now(),
    );
  for (const project of options.projects) {
    const current = await client.branches(project);
    const known = await knownHeads(events, connection, project);
    for (const ref of known === null ? [] : [...new Set([...Object.keys(known), ...Object.keys(current)])].sort()) {
      const oldRev = known?.[ref] ?? DELETED;
      const newRev = current[ref] ?? DELETED;
      if (oldRev !== newRev) {
        const update = { type: 'ref-updated', refUpdate: { project, refName: ref, oldRev, newRev } };
        stored += (await store({ ...update, eventCreatedOn: Math.floor(options.now().getTime() / 1000) })) ? 1 : 0;
      }
    }
    await store({ type: BRANCH_HEADS, project, heads: current });
  }
  if (stored > 0) {
    options.log.info({ connection, stored }, 'Gerrit branch updates missed while no stream listened stored');
  }
  return stored;
}
