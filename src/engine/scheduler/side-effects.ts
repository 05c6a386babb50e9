/**
 * The side effects of a committed pass (executor and launcher calls), run in order after the
 * commit (docs/operations.md#leadership-model). While PostgreSQL is away a call is tried again
 * as long as this scheduler still leads. When the lead lapses first, the calls not made are
 * kept: should this scheduler lead again with the next epoch (nobody led in between), it makes
 * them then; otherwise the leader that came between decided from the stored state, and the
 * calls are dropped (builds and node requests are sent again by every new leader, recovery.ts).
 */
import { retryConnectionErrors } from '../../store/links';
import type { SchedulerLogger } from './pass';

type Action = () => Promise<void>;

export class SideEffects {
  private abandoned: { epoch: number; actions: Action[] } | null = null;

  constructor(
    private readonly tenant: string,
    private readonly leading: () => boolean,
    private readonly stopping: () => boolean,
    private readonly logger: SchedulerLogger | undefined,
  ) {}

  /** Run the calls of a pass that committed under lease `epoch` (null: no leadership in use). */
  async run(actions: readonly Action[], epoch: number | null): Promise<void> {
    for (const [index, action] of actions.entries()) {
      if (!this.leading()) {
        this.abandon(actions.slice(index), epoch);
        return;
      }
      try {
        await retryConnectionErrors(action, { giveUp: () => !this.leading() || this.stopping() });
      } catch (error) {
        if (!this.leading() && !this.stopping()) {
          this.abandon(actions.slice(index), epoch);
          return;
        }
        this.logger?.error(`engine side effect failed for tenant ${this.tenant}`, error);
      }
    }
  }

  /** The lead was taken again with `epoch`: make the kept calls when nobody led in between. */
  async resume(epoch: number | null): Promise<void> {
    const abandoned = this.abandoned;
    this.abandoned = null;
    if (abandoned === null) {
      return;
    }
    if (epoch !== abandoned.epoch + 1) {
      this.logger?.error(
        `tenant ${this.tenant}: ${abandoned.actions.length} side effect(s) of epoch ${abandoned.epoch} dropped: another scheduler led since`,
      );
      return;
    }
    await this.run(abandoned.actions, epoch);
  }

  private abandon(actions: Action[], epoch: number | null): void {
    if (epoch === null) {
      return;
    }
    this.abandoned = {
      epoch,
      actions: [...(this.abandoned?.epoch === epoch ? this.abandoned.actions : []), ...actions],
    };
    this.logger?.error(
      `tenant ${this.tenant}: the lead lapsed after a pass; ${actions.length} side effect(s) kept until it is taken again`,
    );
  }
}
