/**
 * Gerrit's stream events (`gerrit stream-events`, one JSON object a line) as trigger events
 * (docs/gerrit.md#trigger-events): the change and patch set, or the ref update, who caused it,
 * and the attributes the trigger filters read (comment, votes, hashtags, checker).
 */
import { createHash } from 'node:crypto';
import type { TriggerEvent } from '../../model/engine-events';
import { GERRIT_EVENTS } from './rules';

interface Account {
  username?: string;
  email?: string;
  name?: string;
}

/** The fields of a stream event Sluice reads ("any field may be missing", as Gerrit's documentation warns). */
export interface StreamEvent {
  type?: string;
  change?: { project?: string; branch?: string; number?: number | string; topic?: string };
  patchSet?: { number?: number | string; revision?: string; ref?: string };
  refUpdate?: { project?: string; refName?: string; oldRev?: string; newRev?: string };
  comment?: string;
  approvals?: Array<{ type?: string; value?: string | number; oldValue?: string | number }>;
  added?: string[];
  removed?: string[];
  uuid?: string;
  scheme?: string;
  eventCreatedOn?: number;
  [who: string]: unknown;
}

/** Who caused an event, by its type's attribute name. */
const ACTORS = ['author', 'uploader', 'submitter', 'abandoner', 'restorer', 'changer', 'editor', 'remover', 'reviewer'];

/** The id a stream event is stored under: the same line arriving twice (a reconnect) is stored once. */
export function eventDelivery(line: string): string {
  return createHash('sha256').update(line.trim()).digest('hex');
}

/**
 * Events that no trigger filter names but that the engine acts on, as the reference's change
 * cache does: `topic-changed` may change a dependency cycle (docs/gating.md#dependency-cycles).
 */
const CHANGE_UPDATES = ['topic-changed'];

/**
 * The trigger event of a stream event (its project the Gerrit project's name), or null for an
 * event Sluice takes no trigger from (`reviewer-added`, `ref-replicated`, ...) or that lacks
 * what it needs.
 */
export function triggerOf(event: StreamEvent, connection: string): TriggerEvent | null {
  const type = event.type ?? '';
  if (!GERRIT_EVENTS.includes(type) && !CHANGE_UPDATES.includes(type)) {
    return null;
  }
  const actor = ACTORS.map((key) => event[key] as Account | undefined).find((a) => a !== undefined && a !== null);
  const common = {
    type: type as TriggerEvent['type'],
    connection,
    ...(actor?.username === undefined ? {} : { account: actor.username }),
    ...(actor?.email === undefined ? {} : { email: actor.email }),
    ...(event.eventCreatedOn === undefined ? {} : { timestamp: new Date(event.eventCreatedOn * 1000).toISOString() }),
  };
  if (type === 'ref-updated') {
    const update = event.refUpdate;
    if (update?.project === undefined || update.refName === undefined) {
      return null;
    }
    // Older Gerrit versions name a branch without `refs/heads/`.
    const ref = update.refName.startsWith('refs/') ? update.refName : `refs/heads/${update.refName}`;
    return {
      ...common,
      project: update.project,
      ref,
      ...(ref.startsWith('refs/heads/') ? { branch: ref.slice('refs/heads/'.length) } : {}),
      oldrev: update.oldRev ?? null,
      newrev: update.newRev ?? null,
    };
  }
  const change = event.change;
  if (change?.project === undefined || change.number === undefined) {
    return null;
  }
  return {
    ...common,
    project: change.project,
    change: Number(change.number),
    ...(event.patchSet?.number === undefined ? {} : { patchset: String(event.patchSet.number) }),
    ...(change.branch === undefined ? {} : { branch: change.branch }),
    ...(event.comment === undefined ? {} : { comment: event.comment }),
    ...(event.approvals === undefined
      ? {}
      : {
          approvals: event.approvals
            .filter((a) => a.type !== undefined && a.value !== undefined)
            .map((a) => ({
              type: String(a.type),
              value: Number(a.value),
              ...(a.oldValue === undefined ? {} : { oldValue: Number(a.oldValue) }),
            })),
        }),
    ...(event.added === undefined ? {} : { added: event.added }),
    ...(event.removed === undefined ? {} : { removed: event.removed }),
    ...(event.uuid === undefined ? {} : { uuid: event.uuid }),
    ...(event.scheme === undefined ? {} : { scheme: event.scheme }),
  };
}
