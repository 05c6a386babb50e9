/**
 * The fake Gerrit's change queries (test/helpers/fake-gerrit/server.ts): `GET /changes/?q=` terms
 * and a revision's related changes (its git ancestry and the changes built on it).
 */
import type { FakeChange } from './model';

/** Milliseconds since the epoch of a time in Gerrit's format. */
function gerritMs(date: string): number {
  return Date.parse(`${date.slice(0, 23).replace(' ', 'T')}Z`);
}

/**
 * Gerrit's related changes of a revision: the changes its ancestry passes through and those
 * built on it, newest first; empty when there are none but itself.
 */
export function related(changes: readonly FakeChange[], revision: string): Record<string, unknown> {
  const owner = (sha: string) =>
    changes
      .flatMap((c) => c.patchsets.map((p) => ({ change: c, patchset: p })))
      .find((e) => e.patchset.revision === sha);
  const chain: Array<{ change: FakeChange; patchset: FakeChange['patchsets'][number] }> = [];
  for (let at = owner(revision); at !== undefined; at = owner(at.patchset.parent)) {
    chain.push(at);
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const other of changes) {
      const current = other.patchsets.at(-1);
      if (
        current &&
        !chain.some((e) => e.change === other) &&
        chain.some((e) => e.patchset.revision === current.parent)
      ) {
        chain.unshift({ change: other, patchset: current });
        grew = true;
      }
    }
  }
  if (chain.length <= 1) {
    return { changes: [] };
  }
  return {
    changes: chain.map(({ change: c, patchset: p }) => ({
      project: c.project,
      change_id: c.changeId,
      commit: { commit: p.revision, parents: [{ commit: p.parent }], subject: c.subject },
      _change_number: c.number,
      _revision_number: p.number,
      _current_revision_number: c.patchsets.length,
      status: c.status,
    })),
  };
}

/**
 * The changes of a query of `project:`, `status:open`, `topic:`, `change:<number or Change-Id>`,
 * `after:"<YYYY-MM-DD HH:MM:SS -0000>"` (updated at or after) and `age:<N>s` / `-age:<N>s` terms
 * (a `-` negates only `age`).
 */
export function queryChanges(changes: readonly FakeChange[], q: string): FakeChange[] {
  const terms = [...q.matchAll(/(-?)(\w+):("[^"]*"|\S+)/g)].map((m) => [m[1], m[2], m[3].replace(/^"|"$/g, '')]);
  if (terms.length === 0 && q.trim() !== '') {
    return [];
  }
  return changes.filter((change) =>
    terms.every(([negated, key, value]) => {
      switch (key) {
        case 'age':
          // `age:Ns`: updated at least N seconds ago; `-age:Ns`: within the last N seconds.
          return Date.now() - gerritMs(change.updated) >= Number.parseInt(value, 10) * 1000 !== (negated === '-');
        case 'after':
          return gerritMs(change.updated) >= Date.parse(value.replace(' -0000', 'Z').replace(' ', 'T'));
        case 'project':
          return change.project === value;
        case 'status':
          return value === 'open' ? change.status === 'NEW' : change.status.toLowerCase() === value;
        case 'change':
          return String(change.number) === value || change.changeId === value;
        case 'topic':
          return change.topic === value;
        default:
          return false;
      }
    }),
  );
}
