/**
 * Where a git poller keeps the refs it has reported (docs/operations.md#durable-source-state). The
 * durable store writes a poll's trigger events and the new refs in one transaction, so what moved
 * while Sluice was down is reported after a restart, exactly once; the memory store (tests and
 * tools without a database) forgets everything when the process ends.
 */
import type { Knex } from 'knex';
import { GitPollerStateRepository, type StoredRefs } from '../../store/repositories/git-poller-state';
import type { GitTriggerEvent } from './poller';

export type { StoredRefs } from '../../store/repositories/git-poller-state';

export interface PollerStateStore {
  /** The refs last saved for a project of the poller's connection; null before its first poll. */
  load(project: string): Promise<StoredRefs | null>;
  /**
   * Record `events` and the project's new `refs` (null: keep the stored ones) together, provided
   * the stored generation is still `expected` (null: nothing stored). False, with nothing
   * recorded, when another poller saved first.
   */
  save(
    project: string,
    expected: number | null,
    refs: ReadonlyMap<string, string> | null,
    events: readonly GitTriggerEvent[],
  ): Promise<boolean>;
}

/** Writes a poll's events (as trigger events of the tenants holding the project) inside the save's transaction. */
export type TriggerRecorder = (trx: Knex.Transaction, events: readonly GitTriggerEvent[]) => Promise<void>;

export class DurablePollerState implements PollerStateStore {
  private readonly repository: GitPollerStateRepository;

  constructor(
    knex: Knex,
    private readonly connection: string,
    private readonly record: TriggerRecorder,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.repository = new GitPollerStateRepository(knex);
  }

  load(project: string): Promise<StoredRefs | null> {
    return this.repository.load(this.connection, project);
  }

  save(
    project: string,
    expected: number | null,
    refs: ReadonlyMap<string, string> | null,
    events: readonly GitTriggerEvent[],
  ): Promise<boolean> {
    return this.repository.save(this.connection, project, expected, refs, this.now(), (trx) =>
      events.length > 0 ? this.record(trx, events) : Promise.resolve(),
    );
  }
}

/** Refs kept in this process only: a restart starts from a new baseline. */
export class MemoryPollerState implements PollerStateStore {
  private readonly projects = new Map<string, StoredRefs>();

  load(project: string): Promise<StoredRefs | null> {
    const stored = this.projects.get(project);
    return Promise.resolve(stored ? { refs: new Map(stored.refs), generation: stored.generation } : null);
  }

  save(
    project: string,
    expected: number | null,
    refs: ReadonlyMap<string, string> | null,
    _events: readonly GitTriggerEvent[],
  ): Promise<boolean> {
    const stored = this.projects.get(project);
    if ((stored?.generation ?? null) !== expected) {
      return Promise.resolve(false);
    }
    if (refs !== null) {
      this.projects.set(project, { refs: new Map(refs), generation: (stored?.generation ?? 0) + 1 });
    }
    return Promise.resolve(true);
  }
}
