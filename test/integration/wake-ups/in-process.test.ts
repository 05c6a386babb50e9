/**
 * Wake-ups in one process (docs/operations.md#wake-ups): the quickstart in one `buildApp()`
 * process with every fallback poll a minute long (`scheduler.pollInterval`,
 * `executor.pollInterval`, and a lease renewed every 200 s, since a renewal also ends a
 * scheduler's wait). A change enqueued over REST is tested and merged, and each hand-over
 * between roles (enqueue -> scheduler, build request -> executor, build result -> scheduler)
 * took far less than a poll: only the wake-ups can have moved it.
 */
import {
  startQuickstartApp,
  QUICKSTART_PROJECT,
  QUICKSTART_TENANT,
  type QuickstartApp,
} from '../../helpers/quickstart-app';
import { gateHops } from '../../helpers/gate-hops';
import { git } from '../../../src/sources/git-cli';

jest.setTimeout(180_000);

/** Far below the minute-long polls, far above a wake-up on a busy machine. */
const HOP_LIMIT_MS = 15_000;

describe('wake-ups between the roles of one process', () => {
  let quickstart: QuickstartApp;

  beforeAll(async () => {
    quickstart = await startQuickstartApp('sluice-wake-ups-', {
      configure: (config) => {
        config.scheduler.pollInterval = 60;
        config.scheduler.leaseTimeout = 600;
        config.executor.pollInterval = 60;
      },
    });
  });

  afterAll(async () => {
    await quickstart?.stop();
  });

  it('merges an enqueued change without waiting for any poll', async () => {
    const sha = await quickstart.pushChange(1, { 'NOTES.md': 'Woken, not polled\n' }, 'Add notes');
    const from = quickstart.deltaCount();
    const since = new Date();
    const response = await fetch(
      `${quickstart.url()}/api/tenant/${QUICKSTART_TENANT}/project/${QUICKSTART_PROJECT}/enqueue`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${quickstart.token()}` },
        body: JSON.stringify({ pipeline: 'gate', change: '1,1' }),
      },
    );
    expect(response.status).toBeLessThan(300);
    const report = await quickstart.waitForReport('gate', from);
    expect(report).toMatchObject({ type: 'item-reported', result: 'SUCCESS' });
    await git(quickstart.bareRepo, ['merge-base', '--is-ancestor', sha, 'refs/heads/master']);

    const hops = await gateHops(quickstart.database.knex, QUICKSTART_TENANT, since);
    expect(hops.enqueueToPass).toHaveLength(1);
    expect(hops.requestToClaim.length).toBeGreaterThan(0);
    // The post pipeline's build of the merge may still run: the gate's results are in.
    expect(hops.resultToPass.length).toBeGreaterThan(0);
    for (const hop of [...hops.enqueueToPass, ...hops.requestToClaim, ...hops.resultToPass]) {
      expect(hop).toBeLessThan(HOP_LIMIT_MS);
    }
  });
});
