/**
 * Change look-ups answered before the pass (docs/gating.md#engine-work): before a pass opens its
 * transaction, the questions its pending events will ask the change source (each trigger's or
 * enqueue's change or ref, the open changes of a merged change's project, and the changes those
 * depend on) are answered with no transaction open; the pass reads them through
 * `PassLookups.changes`. A question nobody foresaw (the changes depending on an enqueued one,
 * a requirement checked again before a merge) is still asked inside the pass, and counted.
 * Answers live until the pass commits.
 */
import type { ChangeInfo } from '../../model/changes';
import { ZERO_REVISION } from '../../model/changes';
import type { EngineEventRecord } from '../../store/repositories/engine-events';
import type { ChangeSource } from '../ports/change-source';
import type { EngineLayout } from '../ports/layout';
import { resolveChange, resolveProject } from '../scheduler/change-lookup';

/** One question to the change source. */
export type Lookup =
  | { kind: 'change'; project: string; number: number; patchset?: string }
  | { kind: 'ref'; project: string; ref: string; oldrev: string | null; newrev: string | null }
  | { kind: 'open'; project: string }
  | { kind: 'depending'; change: ChangeInfo; projects: readonly string[] }
  | { kind: 'topic'; change: ChangeInfo };

type Answer = { ok: true; value: unknown } | { ok: false; error: unknown };

/** How deep the changes a change depends on are read ahead. */
const DEPENDS_ON_DEPTH = 4;

function keyOf(lookup: Lookup): string {
  switch (lookup.kind) {
    case 'change':
      return `change\n${lookup.project}\n${lookup.number}\n${lookup.patchset ?? ''}`;
    case 'ref':
      return `ref\n${lookup.project}\n${lookup.ref}\n${lookup.oldrev ?? ''}\n${lookup.newrev ?? ''}`;
    case 'open':
      return `open\n${lookup.project}`;
    case 'depending':
      return `depending\n${lookup.change.project}\n${lookup.change.ref}\n${lookup.projects.join('\n')}`;
    case 'topic':
      return `topic\n${lookup.change.project}\n${lookup.change.ref}`;
  }
}

/** A change source that records the questions asked and answers none (what would a pass ask?). */
function recorder(into: Lookup[]): ChangeSource {
  return {
    getChange: (project, number, patchset) => {
      into.push({ kind: 'change', project, number, patchset });
      return Promise.resolve(null);
    },
    getRef: (project, ref, oldrev, newrev) => {
      into.push({ kind: 'ref', project, ref, oldrev, newrev });
      return Promise.reject(new Error('recorded'));
    },
    openChanges: (project) => {
      into.push({ kind: 'open', project });
      return Promise.resolve([]);
    },
    changesDependingOn: (change, projects) => {
      into.push({ kind: 'depending', change, projects });
      return Promise.resolve([]);
    },
    changesInTopic: (change) => {
      into.push({ kind: 'topic', change });
      return Promise.resolve([]);
    },
  };
}

export class PassLookups {
  private readonly answers = new Map<string, Answer>();
  /** Look-ups answered before a pass, and asked inside one (nobody foresaw them). */
  readonly counts = { before: 0, inside: 0 };

  constructor(private readonly source: ChangeSource) {}

  /** The change source of a pass: the answers read before it, else the change source itself. */
  readonly changes: ChangeSource = {
    getChange: (project, number, patchset) => this.ask({ kind: 'change', project, number, patchset }),
    getRef: (project, ref, oldrev, newrev) => this.ask({ kind: 'ref', project, ref, oldrev, newrev }),
    openChanges: (project) => this.ask({ kind: 'open', project }),
    changesDependingOn: (change, projects) => this.ask({ kind: 'depending', change, projects }),
    changesInTopic: (change) => this.ask({ kind: 'topic', change }),
  };

  /** Forget every answer (a pass ended: the next one asks afresh). */
  clear(): void {
    this.answers.clear();
  }

  /** Answer the questions the pending events' handlers will ask (outside any transaction). */
  async prefetch(layout: EngineLayout, events: readonly EngineEventRecord[]): Promise<void> {
    const lookups: Lookup[] = [];
    const source = recorder(lookups);
    for (const event of events) {
      if (!event.valid) {
        continue;
      }
      if (event.category === 'trigger') {
        const project = resolveProject(layout, event.event.project);
        if (project === null) {
          continue;
        }
        if (event.event.type === 'project-change-merged') {
          lookups.push({ kind: 'open', project });
        } else {
          await resolveChange(source, project, event.event).catch(() => null);
        }
      } else if (event.category === 'management' && event.event.type === 'enqueue') {
        const enqueue = event.event;
        const project = resolveProject(layout, enqueue.project);
        const tip = enqueue.ref !== undefined && (enqueue.newrev === undefined || enqueue.newrev === ZERO_REVISION);
        if (project !== null) {
          await resolveChange(source, project, tip ? { ...enqueue, newrev: null } : enqueue).catch(() => null);
        }
      }
    }
    await this.answer(lookups);
  }

  /** Ask the change source (no transaction open); a change read brings the changes it depends on. */
  async answer(lookups: readonly Lookup[]): Promise<void> {
    let round = [...lookups];
    for (let depth = 0; round.length > 0 && depth <= DEPENDS_ON_DEPTH; depth += 1) {
      const next: Lookup[] = [];
      for (const lookup of round) {
        const key = keyOf(lookup);
        if (this.answers.has(key)) {
          continue;
        }
        this.counts.before += 1;
        const answer = await this.call(lookup);
        this.answers.set(key, answer);
        const changes = !answer.ok
          ? []
          : lookup.kind === 'open' || lookup.kind === 'depending' || lookup.kind === 'topic'
            ? (answer.value as ChangeInfo[])
            : answer.value === null
              ? []
              : [answer.value as ChangeInfo];
        for (const change of changes) {
          if (change.kind !== 'change' || lookup.kind === 'depending' || lookup.kind === 'topic') {
            continue;
          }
          next.push(
            ...change.dependsOn.map((dep) => ({ kind: 'change' as const, project: dep.project, number: dep.number })),
          );
        }
      }
      round = next;
    }
  }

  private async call(lookup: Lookup): Promise<Answer> {
    try {
      switch (lookup.kind) {
        case 'change':
          return { ok: true, value: await this.source.getChange(lookup.project, lookup.number, lookup.patchset) };
        case 'ref':
          return {
            ok: true,
            value: await this.source.getRef(lookup.project, lookup.ref, lookup.oldrev, lookup.newrev),
          };
        case 'open':
          return { ok: true, value: await this.source.openChanges(lookup.project) };
        case 'depending':
          return { ok: true, value: await this.source.changesDependingOn(lookup.change, lookup.projects) };
        case 'topic':
          return { ok: true, value: (await this.source.changesInTopic?.(lookup.change)) ?? [] };
      }
    } catch (error) {
      // Thrown again inside the pass, where the event's handler fails as it did with the call there.
      return { ok: false, error };
    }
  }

  private async ask<T>(lookup: Lookup): Promise<T> {
    const key = keyOf(lookup);
    let answer = this.answers.get(key);
    if (!answer) {
      this.counts.inside += 1;
      answer = await this.call(lookup);
      this.answers.set(key, answer);
    }
    if (!answer.ok) {
      throw answer.error;
    }
    return answer.value as T;
  }
}
