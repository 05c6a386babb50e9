/** This API process's component record: registered on start, refreshed periodically, marked stopped on shutdown. */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { SLUICE_VERSION } from '../model/version';
import { ComponentRepository } from '../store/repositories/components';
import type { Database } from '../store/database';
import type { Logger } from './logger';

export class ApiComponentHeartbeat {
  private readonly id = randomUUID();
  private readonly components: ComponentRepository;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    database: Database,
    private readonly now: () => Date,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {
    this.components = new ComponentRepository(database.knex);
  }

  async start(): Promise<void> {
    const started = this.now();
    await this.components.register({
      id: this.id,
      kind: 'api',
      hostname: os.hostname(),
      pid: process.pid,
      state: 'running',
      version: SLUICE_VERSION,
      started,
      heartbeat: started,
    });
    this.timer = setInterval(() => {
      this.components
        .heartbeat(this.id, this.now())
        .catch((err: unknown) => this.logger.warn({ err }, 'component heartbeat failed'));
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Stops the periodic heartbeat (shutdown, before the background tasks stop). */
  stopBeating(): void {
    if (this.timer) {
      clearInterval(this.timer);
    }
  }

  /** Marks the record stopped; best effort, the database may already be gone. */
  async markStopped(): Promise<void> {
    await this.components.heartbeat(this.id, this.now(), 'stopped').catch(() => undefined);
  }
}
