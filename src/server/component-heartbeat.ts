/**
 * The component records of this process (docs/operations.md#lost-work): one per role it runs
 * (api, scheduler, executor, launcher), registered on start with what tells whether the process
 * is gone, refreshed together every heartbeat interval (registered again if a reclaimer removed
 * them meanwhile), and marked stopped on shutdown.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { SLUICE_VERSION } from '../model/version';
import { ComponentRepository, type ComponentKind } from '../store/repositories/components';
import type { Database } from '../store/database';
import { hostIdentity } from './host-identity';
import type { Logger } from './logger';

/** A component of this process: its kind and the id it is known by (an executor's worker id, ...). */
export interface ProcessComponent {
  kind: ComponentKind;
  id: string;
}

export class ComponentHeartbeat {
  private readonly components: ComponentRepository;
  private readonly members: ProcessComponent[];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    database: Database,
    private readonly now: () => Date,
    private readonly logger: Logger,
    private readonly intervalMs: number,
    /** The roles' components; the api component is added here when `api` is true. */
    roles: readonly ProcessComponent[] = [],
    api = true,
  ) {
    this.components = new ComponentRepository(database.knex);
    this.members = [...(api ? [{ kind: 'api' as const, id: randomUUID() }] : []), ...roles];
  }

  /** Ids of this process's components. */
  ids(): string[] {
    return this.members.map((member) => member.id);
  }

  async start(): Promise<void> {
    await this.register();
    this.timer = setInterval(() => {
      this.beat().catch((err: unknown) => this.logger.warn({ err }, 'component heartbeat failed'));
    }, this.intervalMs);
    this.timer.unref();
  }

  /** One heartbeat now (the timer calls it; tests with an injected clock too). */
  async beat(): Promise<void> {
    const ids = this.ids();
    if ((await this.components.heartbeat(ids, this.now())) < ids.length) {
      await this.register();
    }
  }

  /** Stops the periodic heartbeat (shutdown, before the background tasks stop). */
  stopBeating(): void {
    if (this.timer) {
      clearInterval(this.timer);
    }
  }

  /** Marks the records stopped; best effort, the database may already be gone. */
  async markStopped(): Promise<void> {
    await this.components.heartbeat(this.ids(), this.now(), 'stopped').catch(() => undefined);
  }

  private async register(): Promise<void> {
    const at = this.now();
    const { bootId, pidNamespace } = hostIdentity();
    for (const member of this.members) {
      await this.components.register(
        {
          id: member.id,
          kind: member.kind,
          hostname: os.hostname(),
          pid: process.pid,
          state: 'running',
          version: SLUICE_VERSION,
          started: at,
          heartbeat: at,
        },
        { bootId, pidNamespace },
      );
    }
  }
}
