/**
 * Stored webhook deliveries become trigger events exactly once and in order
 * (docs/github.md#webhooks): two processors on one database (two scheduler processes) never both
 * process a delivery, and a delivery whose processing fails leaves no events behind.
 */
import { silentLogger } from '../../../src/server/logger';
import { connectionEventProcessor } from '../../../src/drivers/github/roles';
import { GitHubConnection } from '../../../src/drivers/github/connection';
import { ConnectionEventRepository } from '../../../src/store/repositories/connection-events';
import { EngineEventRepository } from '../../../src/store/repositories/engine-events';
import type { TriggerEvent } from '../../../src/model/engine-events';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';

const DELIVERIES = 40;

/** The payload of a push of commit `n` to main. */
function push(n: number): Record<string, unknown> {
  return {
    ref: 'refs/heads/main',
    before: n.toString(16).padStart(40, '0').replace(/^0/, 'a'),
    after: (n + 1).toString(16).padStart(40, '0').replace(/^0/, 'b'),
    repository: { full_name: 'org/app' },
    sender: { login: 'dev' },
  };
}

describe.each(backends())('webhook deliveries to trigger events (%s)', (backend) => {
  let db: TestDatabase;
  const connection = new GitHubConnection('gh', {
    server: 'github.example.com',
    apiToken: 'unused',
    webhookToken: 'secret',
    requestTimeout: 5,
    rateLimitMaxWait: 5,
  });

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
  });

  afterAll(async () => {
    await db.destroy();
  });

  /** A processor as a scheduler process runs it; `fail` may throw to simulate a fault mid-delivery. */
  function processor(tenant: string, fail: (event: TriggerEvent) => boolean = () => false) {
    const engineEvents = new EngineEventRepository(db.knex);
    return connectionEventProcessor({
      database: db,
      github: new Map([['gh', connection]]),
      tenantsOf: () => [tenant],
      protectedBranchesOf: () => undefined,
      reloadTenants: () => undefined,
      record: async (to, event, trx) => {
        await engineEvents.append({ tenant: to, event, created: new Date() }, trx);
        // Yield between writing the event and committing, so the other processor gets a turn.
        await new Promise((resolve) => setImmediate(resolve));
        if (fail(event)) {
          throw new Error('the API went away');
        }
      },
      wake: () => undefined,
      now: () => new Date(),
      logger: silentLogger(),
    });
  }

  async function storeDeliveries(prefix: string): Promise<void> {
    const deliveries = new ConnectionEventRepository(db.knex);
    for (let n = 0; n < DELIVERIES; n += 1) {
      await deliveries.record(
        { connection: 'gh', delivery: `${prefix}-${n}`, eventType: 'push', payload: push(n) },
        new Date(),
      );
    }
  }

  /** The newrevs of the tenant's trigger events, in the order the scheduler reads them. */
  async function newrevsOf(tenant: string): Promise<string[]> {
    const rows = await db
      .knex('engine_events')
      .where({ tenant, category: 'trigger' })
      .orderBy('id')
      .select<Array<{ payload: { newrev: string } | string }>>('payload');
    return rows.map((row) => (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload).newrev);
  }

  const expectedNewrevs = () => Array.from({ length: DELIVERIES }, (_, n) => String(push(n).after));

  it('two processors turn each delivery into one event, in the order stored', async () => {
    await storeDeliveries('both');
    const first = processor('acme');
    const second = processor('acme');
    first.start();
    second.start();
    await Promise.all([first.idle(), second.idle()]);
    await Promise.all([first.stop(), second.stop()]);
    expect(await newrevsOf('acme')).toEqual(expectedNewrevs());
    const outcomes = await db.knex('connection_events').where('delivery', 'like', 'both-%').select('outcome');
    expect(outcomes.map((row: { outcome: string }) => row.outcome)).toEqual(
      Array.from({ length: DELIVERIES }, () => 'submitted 1'),
    );
  }, 60_000);

  it('a delivery whose processing fails leaves no event and is processed once later', async () => {
    await storeDeliveries('fault');
    let failures = 0;
    const failing = processor('globex', (event) => {
      if (event.type === 'push' && event.newrev === String(push(7).after) && failures === 0) {
        failures += 1;
        return true;
      }
      return false;
    });
    failing.start();
    await failing.idle();
    await failing.stop();
    expect(failures).toBe(1);
    expect(await newrevsOf('globex')).toEqual(expectedNewrevs());
  }, 60_000);

  it('marks a stored delivery whose payload lacks a field read as invalid, and processes the ones after it', async () => {
    const deliveries = new ConnectionEventRepository(db.knex);
    const store = (delivery: string, eventType: string, payload: Record<string, unknown>) =>
      deliveries.record({ connection: 'gh', delivery, eventType, payload }, new Date());
    await store('invalid-0', 'push', push(0));
    // Stored before payloads were checked on arrival: a pull request event without its pull request.
    await store('invalid-1', 'pull_request', { action: 'opened', repository: { full_name: 'org/app' } });
    await store('invalid-2', 'push', push(2));
    const intake = processor('initech');
    intake.start();
    await intake.idle();
    await intake.stop();
    expect(await newrevsOf('initech')).toEqual([String(push(0).after), String(push(2).after)]);
    const outcomes = await db
      .knex('connection_events')
      .where('delivery', 'like', 'invalid-%')
      .orderBy('delivery')
      .select('outcome');
    expect(outcomes.map((row: { outcome: string }) => row.outcome)).toEqual([
      'submitted 1',
      "invalid payload: the pull_request payload's pull_request: Invalid input: expected object, received undefined",
      'submitted 1',
    ]);
  }, 60_000);
});
