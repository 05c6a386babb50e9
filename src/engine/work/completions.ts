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
 * the latest `COMPLETION_DELAY_MS` after the first of them was done, or sent behind the runner's
 * next calls (`send`). Writes go one after another, each with every completion collected so far;
 * after a failed one nothing more is written (the rows stay claimed and are done again).
 */
export class Completions {
  private entries: WorkCompletion[] = [];
  private firstAt = 0;
  /** The write under way, which takes what joins it meanwhile; it never rejects. */
  private writing: Promise<void> | null = null;
  private failure: { error: unknown } | null = null;

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

  /** True once a write failed: the round stops, and `flush` throws its error. */
  get failed(): boolean {
    return this.failure !== null;
  }

  /**
   * Start writing what was collected, without waiting for it: the runner goes on with its next
   * call meanwhile. While a write is under way the completions join the next one, sent when it
   * returns, so a row of quick calls costs one statement per write, not one per call.
   */
  send(): void {
    if (this.writing === null && this.failure === null) {
      this.writing = this.writeAll().finally(() => {
        this.writing = null;
      });
    }
  }

  /** Wait for the write under way, if any (then `failed` tells how it went). */
  async settle(): Promise<void> {
    await this.writing;
  }

  /** Write everything collected (after the write under way); throws the error of a failed write. */
  async flush(): Promise<void> {
    await this.writing;
    if (this.failure === null) {
      this.send();
      await this.writing;
    }
    if (this.failure !== null) {
      throw this.failure.error;
    }
  }

  private async writeAll(): Promise<void> {
    while (this.entries.length > 0 && this.failure === null) {
      const entries = this.entries;
      this.entries = [];
      try {
        const completed = await this.repo.completeMany(entries, this.epoch, this.clock.now());
        if (completed > 0) {
          this.onCompleted();
        }
      } catch (error) {
        this.failure = { error };
        this.entries = [...entries, ...this.entries];
      }
    }
  }
}
