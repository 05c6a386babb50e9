/**
 * docs/rest.md#errors-while-the-database-is-down: REST answers 503 `ServiceUnavailable` in the
 * documented error format (not 500) while the database cannot be reached, and 200 again once it is
 * back. The database is a private PostgreSQL cluster the test starts and stops itself (initdb and
 * pg_ctl on a free port; the shared server is never touched).
 */
import { openDatabase } from '../../../src/store/database';
import { migrateLatest } from '../../../src/store/migrate';
import { eventually } from '../../helpers/pg-faults';
import { postgresBinDir, PrivateCluster } from '../../helpers/private-cluster';
import { describeIf, POSTGRES_BINARIES } from '../../helpers/preconditions';
import { startTestServer, type TestServer } from '../../helpers/server';

const bin = postgresBinDir();

jest.setTimeout(180_000);

describeIf(POSTGRES_BINARIES)('REST while the database is down (private cluster)', () => {
  let cluster: PrivateCluster;
  let server: TestServer;

  beforeAll(async () => {
    cluster = await PrivateCluster.create(bin ?? '');
    await cluster.start();
    const database = openDatabase({ kind: 'postgres', url: cluster.url });
    await migrateLatest(database.knex);
    server = await startTestServer({ database: { ...database, destroy: () => database.close() }, tenants: ['t1'] });
  });

  afterAll(async () => {
    await server?.stop();
    await server?.database.destroy();
    await cluster?.destroy();
  });

  const get = async (resource: string) => {
    const res = await fetch(`${server.url}/api/${resource}`);
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as unknown };
  };

  it('answers 503 with the error JSON while the database is stopped, and 200 once it is back', async () => {
    expect((await get('tenant/t1/builds')).status).toBe(200);
    await cluster.stop('fast');
    const unavailable = {
      status: 503,
      retryAfter: '5',
      body: { error: 'ServiceUnavailable', description: 'The database is unavailable; try again later.' },
    };
    for (const resource of ['tenant/t1/builds', 'tenant/t1/buildsets', 'tenant/t1/status']) {
      expect([resource, await get(resource)]).toEqual([resource, unavailable]);
    }
    const health = await fetch(`${server.url}/health/ready/`);
    expect(health.status).toBe(503);
    await cluster.start();
    await eventually('REST answering again', async () => (await get('tenant/t1/builds')).status === 200, 60_000, 200);
  });
});
