/**
 * The completions of a work runner's round (docs/gating.md#engine-work), kept until written
 * together: see `Completions`.
 */
import type { EngineWorkRepository, WorkCompletion } from '../../store/repositories/engine-work';
import type { Clock } from '../ports/clock';

/** Longest a speculative merge's outcome waits to be recorded with the next ones of its round (ms). */
const COMPLETION_DELAY_MS = 100;

/**
 * The completions of a round not yet recorded: written together (docs/gating.md#engine-work), at
 * the latest `COMPLETION_DELAY_MS` after the first of them was done.
 */
export class Completions {
  private entries: WorkCompletion[] = [];
  private firstAt = 0;

  constructor(
    private readonly repo: EngineWorkRepository,
    private readonly epoch: number,
    private readonly clock: Clock,
    private readonly onCompleted: () => void,
  ) {}

  add(entry: WorkCompletion): void {
    if (this.entries.length === 0) {
      this.firstAt = this.clock.now().getTime();
    }
    this.entries.push(entry);
  }

  /** True when the oldest unrecorded completion has waited long enough. */
  due(): boolean {
    return this.entries.length > 0 && this.clock.now().getTime() - this.firstAt >= COMPLETION_DELAY_MS;
  }

  async flush(): Promise<void> {
    const entries = this.entries;
    if (entries.length === 0) {
      return;
    }
    const completed = await this.repo.completeMany(entries, this.epoch, this.clock.now());
    this.entries = [];
    if (completed > 0) {
      this.onCompleted();
    }
  }
}
