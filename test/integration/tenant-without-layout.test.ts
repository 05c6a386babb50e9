/**
 * A tenant the catalog lists whose configuration is not loaded (dropped by a reconfiguration
 * during a request, or a name-only catalog) answers NOT_FOUND / 404, never an internal error.
 */
import { startTestServer, type TestServer } from '../helpers/server';

describe('a listed tenant without a loaded layout', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ tenants: ['bare'] });
  });

  afterAll(async () => {
    await server.stop();
  });

  it('answers GraphQL reads of its configuration with NOT_FOUND', async () => {
    const res = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ tenant(name: "bare") { ... on Tenant { pipelines { name } } } }' }),
    });
    const body = (await res.json()) as { errors?: Array<{ message: string; extensions?: { code?: string } }> };
    expect(body.errors?.[0]).toMatchObject({
      message: 'Tenant bare has no loaded configuration',
      extensions: { code: 'NOT_FOUND' },
    });
  });

  it('answers the REST routes over it with 404 and the reason', async () => {
    for (const route of ['pipelines', 'projects', 'jobs', 'semaphores', 'labels']) {
      const res = await fetch(`${server.url}/api/tenant/bare/${route}`);
      expect({ route, status: res.status }).toEqual({ route, status: 404 });
      expect(await res.json()).toEqual({ error: 'NotFound', description: 'Tenant bare has no loaded configuration' });
    }
  });
});
