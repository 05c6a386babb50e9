/**
 * Change look-ups answered before the pass (docs/gating.md#engine-work): before a pass opens its
 * transaction, the questions its pending events will ask the change source (each trigger's or
 * enqueue's change or ref, the open changes of a merged change's project, and the changes those
 * depend on) are answered with no transaction open; the pass reads them through
 * `PassLookups.changes`. A question nobody foresaw (the changes depending on an enqueued one,
 * the dependency count of `max-dependencies`, a requirement checked again before a merge) is
 * not asked inside the pass: while `deferring`, it is noted in `missing` and answered as if
 * nothing were found, and the pass runner rolls that pass back, answers the noted questions with
 * no transaction open and runs the pass again (src/engine/scheduler/pass.ts). Answers live until
 * the pass commits.
 */
import type { ChangeInfo } from '../../model/changes';
import { ZERO_REVISION } from '../../model/changes';
import type { EngineEventRecord } from '../../store/repositories/engine-events';
import type { ChangeSource } from '../ports/change-source';
import type { EngineLayout } from '../ports/layout';
import { resolveChange, resolveProject } from '../scheduler/change-lookup';
import { pipelinesListen } from '../triggers';

/** One question to the change source. */
export type Lookup =
  | { kind: 'change'; project: string; number: number; patchset?: string }
  | { kind: 'ref'; project: string; ref: string; oldrev: string | null; newrev: string | null }
  | { kind: 'open'; project: string }
  | { kind: 'depending'; change: ChangeInfo; projects: readonly string[] };

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
  };
}

export class PassLookups {
  private readonly answers = new Map<string, Answer>();
  /** Look-ups answered before a pass, asked inside one (the last try of a pass), and deferred. */
  readonly counts = { before: 0, inside: 0, deferred: 0 };
  /** The answers of `depending` questions, for questions over fewer projects. */
  private readonly dependingAnswers = new Map<Extract<Lookup, { kind: 'depending' }>, Answer>();
  /** While true, an unanswered question is noted in `missing` instead of asked. */
  deferring = false;
  /** Questions a pass asked that had no answer (its transaction must not commit). */
  readonly missing: Lookup[] = [];

  constructor(private readonly source: ChangeSource) {}

  /** The change source of a pass: the answers read before it, else the change source itself. */
  readonly changes: ChangeSource = {
    getChange: (project, number, patchset) => this.ask({ kind: 'change', project, number, patchset }),
    getRef: (project, ref, oldrev, newrev) => this.ask({ kind: 'ref', project, ref, oldrev, newrev }),
    openChanges: (project) => this.ask({ kind: 'open', project }),
    changesDependingOn: (change, projects) => this.ask({ kind: 'depending', change, projects }),
  };

  /** Forget every answer (a pass ended: the next one asks afresh). */
  clear(): void {
    this.answers.clear();
    this.dependingAnswers.clear();
    this.missing.length = 0;
    this.deferring = false;
  }

  /** The questions noted while deferring (and forget them). */
  takeMissing(): Lookup[] {
    return this.missing.splice(0);
  }

  /** Answer the questions the pending events' handlers will ask (outside any transaction). */
  async prefetch(layout: EngineLayout, events: readonly EngineEventRecord[]): Promise<void> {
    const lookups: Lookup[] = [];
    await this.eventQuestions(layout, events, lookups);
    await this.answer(lookups);
    // An enqueued change in a dependent pipeline asks which changes depend on it (the projects
    // sharing its queue), and so does `parent-change-enqueued`: asked once over every project.
    if (
      !layout.pipelines.some((pipeline) => pipeline.manager === 'dependent') &&
      !pipelinesListen(layout, 'parent-change-enqueued')
    ) {
      return;
    }
    const projects = [...layout.projects.keys()];
    const depending: Lookup[] = [];
    for (const lookup of lookups) {
      const answer = lookup.kind === 'change' ? this.answers.get(keyOf(lookup)) : undefined;
      const change = answer?.ok ? (answer.value as ChangeInfo | null) : null;
      if (change?.kind === 'change') {
        depending.push({ kind: 'depending', change, projects });
      }
    }
    await this.answer(depending);
  }

  /** The questions the pending events' handlers ask first, noted in `lookups`. */
  private async eventQuestions(
    layout: EngineLayout,
    events: readonly EngineEventRecord[],
    lookups: Lookup[],
  ): Promise<void> {
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
        if (lookup.kind === 'depending') {
          this.dependingAnswers.set(lookup, answer);
        }
        const changes = !answer.ok
          ? []
          : lookup.kind === 'open' || lookup.kind === 'depending'
            ? (answer.value as ChangeInfo[])
            : answer.value === null
              ? []
              : [answer.value as ChangeInfo];
        for (const change of changes) {
          if (change.kind !== 'change' || lookup.kind === 'depending') {
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

  /**
   * The changes depending on a change within some projects, from an answer over more projects
   * (the prefetch asks over all of them): those of the projects asked for.
   */
  private dependingWithin(lookup: Lookup): Answer | undefined {
    if (lookup.kind !== 'depending') {
      return undefined;
    }
    const wanted = new Set(lookup.projects);
    for (const [other, answer] of this.dependingAnswers) {
      if (
        answer.ok &&
        other.change.project === lookup.change.project &&
        other.change.ref === lookup.change.ref &&
        lookup.projects.every((project) => other.projects.includes(project))
      ) {
        return { ok: true, value: (answer.value as ChangeInfo[]).filter((child) => wanted.has(child.project)) };
      }
    }
    return undefined;
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
      }
    } catch (error) {
      // Thrown again inside the pass, where the event's handler fails as it did with the call there.
      return { ok: false, error };
    }
  }

  private async ask<T>(lookup: Lookup): Promise<T> {
    const key = keyOf(lookup);
    let answer = this.answers.get(key) ?? this.dependingWithin(lookup);
    if (!answer && this.deferring) {
      // The pass goes on as if nothing were found (to note its other questions) and is rolled back.
      this.counts.deferred += 1;
      this.missing.push(lookup);
      if (lookup.kind === 'ref') {
        throw new Error(`look-up of ${lookup.project} ${lookup.ref} deferred until after the pass`);
      }
      return (lookup.kind === 'change' ? null : []) as T;
    }
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
