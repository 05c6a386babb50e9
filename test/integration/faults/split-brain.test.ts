/**
 * Two Sluice processes on one PostgreSQL database (in-process app instances, each with its own
 * pool, bus and executor) after every database session of the first was terminated, then the
 * second started (docs/operations.md#leadership-model): the first keeps the lead (its lease is
 * still valid and its links come back), the second stands by, and six changes are gated with
 * each change queued once, tested once (one buildset, one build per job) and merged.
 */
import { buildApp, type SluiceApp } from '../../../src/server/app';
import { silentLogger } from '../../../src/server/logger';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { GateDeployment, TENANT } from '../../helpers/gate-deployment';
import { eventually, terminateSessions } from '../../helpers/pg-faults';
import { describeIf, MULTI_PROCESS } from '../../helpers/preconditions';

const withPostgres = describeIf(MULTI_PROCESS);
const CHANGES = [1, 2, 3, 4, 5, 6];

jest.setTimeout(300_000);

withPostgres('terminated sessions of a leading process with a second process on the same database', () => {
  let deployment: GateDeployment;
  let database: TestDatabase;
  const apps: SluiceApp[] = [];

  beforeAll(async () => {
    deployment = await GateDeployment.create('sluice-split-brain');
    database = await createTestDatabase({ migrate: false });
  });

  afterAll(async () => {
    for (const app of apps) {
      await app.stop();
    }
    await database.destroy();
    deployment.cleanup();
  });

  async function startProcess(name: string): Promise<SluiceApp> {
    const app = buildApp({
      config: deployment.serviceConfig(name, database.url ?? ''),
      logger: silentLogger(),
      environment: { PATH: process.env.PATH },
    });
    apps.push(app);
    await app.start(0, '127.0.0.1');
    return app;
  }

  async function ready(app: SluiceApp): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${app.url()}/health/ready`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('schedules nothing twice and gates every change once', async () => {
    const first = await startProcess('sluice-a');
    expect(first.roles?.engine.leadership()).toEqual([{ tenant: TENANT, leading: true, epoch: 1 }]);

    // Every session of the first process (pool, LISTEN, publisher) is terminated.
    expect(await terminateSessions(database.knex, 'true')).toBeGreaterThan(0);
    const second = await startProcess('sluice-b');
    expect(second.roles?.engine.leadership()).toEqual([{ tenant: TENANT, leading: false, epoch: null }]);

    const shas = new Map<number, string>();
    for (const change of CHANGES) {
      shas.set(change, await deployment.pushChange(change));
      await deployment.enqueue(change % 2 === 0 ? second.url() : first.url(), change);
    }
    await eventually(
      'every change reported in gate',
      async () =>
        (await deployment.gateOutcome(database.knex, CHANGES)).every(
          (outcome) => outcome.buildsets.length > 0 && outcome.buildsets.every((result) => result !== null),
        ),
      240_000,
      250,
    );

    expect(await deployment.gateOutcome(database.knex, CHANGES)).toEqual(
      CHANGES.map((change) => ({ change, items: 1, buildsets: ['SUCCESS'], duplicateBuilds: 0 })),
    );
    for (const change of CHANGES) {
      expect(await deployment.merged(shas.get(change) ?? '')).toBe(true);
    }
    // One leader all along; the first process's links came back.
    expect(first.roles?.engine.leadership()).toEqual([{ tenant: TENANT, leading: true, epoch: 1 }]);
    expect(second.roles?.engine.leadership()).toEqual([{ tenant: TENANT, leading: false, epoch: null }]);
    await eventually('the first process ready again', async () => (await ready(first)).status === 200);
    expect((await ready(first)).body).toMatchObject({
      status: 'ready',
      links: { database: { up: true }, 'bus.listen': { up: true }, 'bus.publish': { up: true } },
      leadership: { [TENANT]: { leading: true, epoch: 1 } },
    });
  });
});
