/** Wires an Engine to a test database and the scripted neighbours; one per scenario. */
import { Engine, type EngineOptions } from '../../src/engine/engine';
import { InProcessEventBus, type EngineDelta } from '../../src/engine/event-bus';
import type { EngineLayout } from '../../src/engine/ports/layout';
import type { ChangeReporter } from '../../src/engine/ports/reporter';
import type { TriggerEvent } from '../../src/model/engine-events';
import type { Database } from '../../src/store/database';
import { BuildRepository, type BuildRecord } from '../../src/store/repositories/builds';
import { BuildsetRepository, type BuildsetRecord } from '../../src/store/repositories/buildsets';
import { canonical, FakeClock } from './scripted-layout';
import { FakeChanges } from './fake-changes';
import { InstantNodes, ScriptedExecutor, ScriptedMerger } from './scripted-gateways';

let tenantCounter = 0;

/** A tenant name unique within the test process (scenarios share one database per file). */
export function nextTenant(): string {
  tenantCounter += 1;
  return `tenant-${tenantCounter}`;
}

export class EngineHarness {
  readonly clock: FakeClock;
  readonly changes: FakeChanges;
  readonly merger: ScriptedMerger;
  readonly executor: ScriptedExecutor;
  readonly nodes: InstantNodes;
  readonly bus = new InProcessEventBus();
  readonly deltas: EngineDelta[] = [];
  /** Errors the scheduler logged (scenarios expect none). */
  readonly errors: string[] = [];
  engine: Engine;
  private readonly reporter: ChangeReporter | undefined;
  private uuidCounter = 0;

  readonly tenant: string;

  constructor(
    readonly database: Database,
    public layout: EngineLayout,
    /** State kept across a simulated restart; `executor`: an executor that outlives the engine (its builds keep running). */
    shared?: {
      clock: FakeClock;
      changes: FakeChanges;
      merger?: ScriptedMerger;
      executor?: ScriptedExecutor;
      /** The reporter of the pipelines' external reporters (none by default). */
      reporter?: ChangeReporter;
    },
    /** Engine options over the harness's own (leadership timings, observers). */
    private readonly engineOptions: Partial<EngineOptions> = {},
  ) {
    this.tenant = layout.tenant;
    this.clock = shared?.clock ?? new FakeClock();
    this.changes = shared?.changes ?? new FakeChanges();
    this.merger = shared?.merger ?? new ScriptedMerger(this.changes);
    this.executor = shared?.executor ?? new ScriptedExecutor(this.clock);
    this.nodes = new InstantNodes();
    this.reporter = shared?.reporter;
    this.bus.subscribe(this.tenant, (delta) => this.deltas.push(delta));
    this.engine = this.createEngine();
  }

  private createEngine(): Engine {
    const engine = new Engine({
      database: this.database,
      layouts: (tenant) => (tenant === this.layout.tenant ? this.layout : null),
      gateways: {
        changes: this.changes,
        merger: this.merger,
        executor: this.executor,
        nodes: this.nodes,
        ...(this.reporter ? { reporter: this.reporter } : {}),
      },
      bus: this.bus,
      clock: this.clock,
      pollIntervalMs: 50,
      logger: {
        error: (message, error) => {
          this.errors.push(`${message}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        },
      },
      uuid: () => {
        this.uuidCounter += 1;
        return `${this.tenant.replace(/\D/g, '').padStart(4, '0')}${String(this.uuidCounter).padStart(28, '0')}`;
      },
      ...this.engineOptions,
    });
    this.executor.sink = (tenant, event) => engine.submitResult(tenant, event);
    this.nodes.sink = (tenant, event) => engine.submitResult(tenant, event);
    return engine;
  }

  async start(): Promise<void> {
    const started = await this.engine.startTenant(this.tenant);
    if (!started) {
      throw new Error('scheduler did not start');
    }
  }

  async stop(): Promise<void> {
    await this.engine.stop();
  }

  /** Wait until the scheduler is idle. */
  async settle(): Promise<void> {
    await this.engine.settle(this.tenant);
  }

  /** Settle, finishing every build still running (as it was tested) until none is left. */
  async finishEverything(): Promise<void> {
    await this.settle();
    while (this.executor.running.size > 0) {
      await this.executor.finishAll();
      await this.settle();
    }
  }

  /** The changes (numbers) the last build of a change was tested on. */
  testedOn(change: number): number[] {
    const builds = this.executor.started.filter((params) => params.changes[0].number === change);
    return builds[builds.length - 1].mergeItems.map((item) => item.number ?? 0);
  }

  /** A new patchset event for a change (as the git poller emits it). */
  async patchsetCreated(project: string, number: number, patchset?: string): Promise<void> {
    const change = await this.changes.getChange(canonical(project), number, patchset);
    const event: TriggerEvent = {
      type: 'patchset-created',
      project: canonical(project),
      change: number,
      patchset: change?.patchset ?? '1',
    };
    await this.engine.submitTrigger(this.tenant, event);
  }

  /** Submit a trigger event and wait for it to be processed; returns its outcome. */
  async trigger(event: TriggerEvent): Promise<string | null> {
    const id = await this.engine.submitTrigger(this.tenant, event);
    await this.settle();
    return this.engine.eventOutcome(id);
  }

  /** Enqueue through the admin operation and wait for it to be processed; returns its outcome. */
  async enqueue(pipeline: string, project: string, change: string): Promise<string | null> {
    const result = await this.engine.enqueue(this.tenant, { pipeline, project, change, by: 'admin' });
    if (!result.ok) {
      throw new Error(result.error.message);
    }
    await this.settle();
    return this.engine.eventOutcome(result.value.eventId);
  }

  /** Reports in the order they happened: `<change id> <pipeline> <result>`. */
  reports(): string[] {
    const changeOf = new Map<string, string>();
    const lines: string[] = [];
    for (const delta of this.deltas) {
      if (delta.type === 'item-enqueued') {
        changeOf.set(delta.itemUuid, delta.changeIds.join(' '));
      } else if (delta.type === 'item-reported') {
        lines.push(`${changeOf.get(delta.itemUuid) ?? delta.itemUuid} ${delta.pipeline} ${delta.result}`);
      }
    }
    return lines;
  }

  /** The tenant's buildsets, oldest first. */
  async buildsets(): Promise<BuildsetRecord[]> {
    const rows = await new BuildsetRepository(this.database.knex).list(
      this.tenant,
      {},
      { limit: 1000, offset: 0, fromEnd: false },
    );
    return rows.sort((a, b) => a.id - b.id);
  }

  /** The tenant's builds, oldest first. */
  async builds(): Promise<BuildRecord[]> {
    const rows = await new BuildRepository(this.database.knex).list(
      this.tenant,
      {},
      { limit: 1000, offset: 0, fromEnd: false },
    );
    return rows.sort((a, b) => a.id - b.id);
  }
}
