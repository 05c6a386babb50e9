/**
 * Whether the branch merge that a merge asked for behind it waits for was made
 * (docs/gating.md#merges-in-a-row): from what this runner made, else from the store (the row
 * of a former leader, or one no longer kept in memory).
 */
import type { EngineWorkRepository } from '../../store/repositories/engine-work';

export type MergeAheadState = 'merged' | 'not-merged' | 'pending';

/** Outcomes kept in memory: the merges of a queue's head are a few at a time. */
const KEPT = 1000;

export class MergesAhead {
  private readonly known = new Map<string, boolean>();

  constructor(
    private readonly repo: EngineWorkRepository,
    private readonly tenant: string,
  ) {}

  /**
   * A branch merge's outcome as this runner made it (its completion is written behind the next
   * calls): the merges behind it follow what was done, recorded or not yet.
   */
  made(buildsetUuid: string, merged: boolean): void {
    this.known.delete(buildsetUuid);
    this.known.set(buildsetUuid, merged);
    if (this.known.size > KEPT) {
      const oldest = this.known.keys().next().value;
      if (oldest !== undefined) {
        this.known.delete(oldest);
      }
    }
  }

  /**
   * The merge of `buildsetUuid` stored before row `row`: `pending` while it runs elsewhere, and
   * `not-merged` when it was refused, skipped or cannot be found (then the item is tested again,
   * which is safe whatever happened to the one ahead).
   */
  async state(buildsetUuid: string, row: number): Promise<MergeAheadState> {
    const known = this.known.get(buildsetUuid);
    if (known !== undefined) {
      return known ? 'merged' : 'not-merged';
    }
    const stored = await this.repo.branchMergeBefore(this.tenant, buildsetUuid, row);
    if (stored === null) {
      return 'not-merged';
    }
    if (stored.state !== 'completed') {
      return 'pending';
    }
    return stored.outcome === 'merged' ? 'merged' : 'not-merged';
  }
}

/** Thrown while the merge ahead runs elsewhere: the row is claimed again later. */
export class WaitingForMergeAhead extends Error {}
