/**
 * Wake-ups across processes (docs/operations.md#wake-ups): an api, a scheduler and an executor
 * process (real `sluice serve --roles ...`) on one PostgreSQL database with the event bus on
 * PostgreSQL NOTIFY, every fallback poll a minute long (`scheduler.pollInterval`,
 * `executor.pollInterval`; a lease renewed every 200 s, since a renewal also ends a scheduler's
 * wait). A change enqueued through the api process is tested by the executor process and merged
 * by the scheduler process, and each hand-over between them took far less than a poll: only the
 * wake-ups over the bus can have moved it.
 */
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { GateDeployment, TENANT } from '../../helpers/gate-deployment';
import { gateHops } from '../../helpers/gate-hops';
import { describeIf, MULTI_PROCESS } from '../../helpers/preconditions';
import { waitFor } from '../../helpers/recovery-deployment';
import { startGateRoles, type RoleProcess } from '../../helpers/role-process';

const withPostgres = describeIf(MULTI_PROCESS);

jest.setTimeout(300_000);

/** Far below the minute-long polls, far above a wake-up on a busy machine. */
const HOP_LIMIT_MS = 15_000;

withPostgres('wake-ups between role processes', () => {
  let deployment: GateDeployment;
  let database: TestDatabase;
  const processes: RoleProcess[] = [];

  beforeAll(async () => {
    deployment = await GateDeployment.create('sluice-wake-ups');
    database = await createTestDatabase({ migrate: false });
  });

  afterAll(async () => {
    await Promise.all(processes.map((child) => child.stop()));
    await database?.destroy();
    deployment?.cleanup();
  });

  it('moves a change from the api to the scheduler, the executor and back without polls', async () => {
    const common = {
      scheduler: { pollInterval: 60, leaseTimeout: 600 },
      executor: { slots: 2, pollInterval: 60 },
      components: { heartbeatInterval: 1, expiry: 600 },
      shutdownTimeout: 5,
    };
    // Resolves once the scheduler leads: the executor's first look for work at its start is over.
    const { api } = await startGateRoles(deployment, database, TENANT, common, processes);

    const sha = await deployment.pushChange(1);
    const since = new Date();
    await deployment.enqueue(api.base, 1);
    await waitFor(
      'change 1 to be merged',
      async () => {
        const [outcome] = await deployment.gateOutcome(database.knex, [1]);
        return outcome.buildsets.includes('SUCCESS') && (await deployment.merged(sha));
      },
      120_000,
    );

    const hops = await gateHops(database.knex, TENANT, since);
    expect(hops.enqueueToPass).toHaveLength(1);
    expect(hops.requestToClaim.length).toBeGreaterThan(0);
    expect(hops.resultToPass.length).toBeGreaterThan(0);
    for (const hop of [...hops.enqueueToPass, ...hops.requestToClaim, ...hops.resultToPass]) {
      expect(hop).toBeLessThan(HOP_LIMIT_MS);
    }
  });
});
