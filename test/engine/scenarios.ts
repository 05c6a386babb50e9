/**
 * Jest wiring shared by the engine scenario files: one database per file (per backend), a fresh
 * tenant per harness, and every harness stopped after its test with no engine errors.
 */
import { createTestDatabase, type Backend, type TestDatabase } from '../helpers/database';
import { EngineHarness, nextTenant } from './harness';
import { makeLayout, type LayoutSpec } from './scripted-layout';

export interface EngineScenarios {
  /** The file's database (available from `beforeAll` on). */
  readonly db: TestDatabase;
  /** A started harness over a new tenant with this layout. */
  harness(spec: Omit<LayoutSpec, 'tenant'>): Promise<EngineHarness>;
  /**
   * A simulated process restart: stops `previous` and starts (and settles) a new engine over the
   * same store, layout, clock and git state. `keepExecutor`: the executor outlives the scheduler
   * (its builds keep running); otherwise the new process has a fresh executor that lost them.
   */
  restart(previous: EngineHarness, options: { keepExecutor: boolean }): Promise<EngineHarness>;
}

export function engineScenarios(backend?: Backend): EngineScenarios {
  let database: TestDatabase | undefined;
  const running: EngineHarness[] = [];

  beforeAll(async () => {
    database = await createTestDatabase({ backend });
  });

  afterEach(async () => {
    for (const h of running.splice(0)) {
      await h.stop();
      expect(h.errors).toEqual([]);
    }
  });

  afterAll(async () => {
    await database?.destroy();
  });

  const db = (): TestDatabase => {
    if (database === undefined) {
      throw new Error('the scenario database is created in beforeAll');
    }
    return database;
  };

  return {
    get db() {
      return db();
    },
    async harness(spec) {
      const h = new EngineHarness(db(), makeLayout({ ...spec, tenant: nextTenant() }));
      running.push(h);
      await h.start();
      return h;
    },
    async restart(previous, { keepExecutor }) {
      await previous.stop();
      running.splice(running.indexOf(previous), 1);
      const next = new EngineHarness(db(), previous.layout, {
        clock: previous.clock,
        changes: previous.changes,
        merger: previous.merger,
        executor: keepExecutor ? previous.executor : undefined,
      });
      running.push(next);
      await next.start();
      await next.settle();
      return next;
    },
  };
}
