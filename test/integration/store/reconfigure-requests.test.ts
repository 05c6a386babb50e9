/**
 * Two kinds of `reconfigure` management events share `engine_events`: `sluice reconfigure`
 * requests (docs/project-configuration.md#reconfiguration), claimed by the process that holds the
 * layouts, and the engine's own wake-up after a tenant's new layout, read by that tenant's
 * scheduler. Each reader must take only its own: a scheduler that took a tenant's request marked
 * it done and the reload never happened; a layout holder that claimed a wake-up reloaded the
 * tenant, whose new layout wrote another wake-up, and so on at every poll.
 */
import { EngineEventRepository } from '../../../src/store/repositories/engine-events';
import { ReconfigureRequestRepository } from '../../../src/store/repositories/reconfigure-requests';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';

describe.each(backends())('reconfigure events on %s', (backend) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('gives requests to the layout holder and wake-ups to the scheduler', async () => {
    const events = new EngineEventRepository(db.knex);
    const requests = new ReconfigureRequestRepository(db.knex);
    const at = new Date();
    const wakeUp = await events.append({ tenant: 'alpha', event: { type: 'reconfigure' }, created: at });
    const named = await requests.request('alpha', at);
    const all = await requests.request(undefined, at);
    const smart = await requests.request(undefined, at, true);

    const scheduler = await events.pending('alpha', 100, ['management']);
    expect(scheduler.map((event) => event.id)).toEqual([wakeUp]);

    const claimed = await requests.claimPending(at);
    expect(claimed).toEqual([
      { id: named, tenant: 'alpha' },
      { id: all, tenant: undefined },
      { id: smart, tenant: undefined, smart: true },
    ]);
    expect(await requests.claimPending(at)).toEqual([]);
    // The wake-up is still the scheduler's.
    expect((await events.pending('alpha', 100, ['management'])).map((event) => event.id)).toEqual([wakeUp]);
  });
});
