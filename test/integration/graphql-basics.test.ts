import { startTestServer, type TestServer } from '../helpers/server';

describe('GraphQL endpoint', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ tenants: ['beta', 'alpha', 'Gamma'] });
  });

  afterAll(async () => {
    await server.stop();
  });

  it('answers __typename over HTTP POST', async () => {
    const result = await server.graphql('{ __typename }');
    expect(result).toEqual({ data: { __typename: 'Query' } });
  });

  it('lists tenants sorted by name (by code point, as the reference), or in configuration order', async () => {
    const result = await server.graphql('{ tenants { name } }');
    expect(result.data).toEqual({ tenants: [{ name: 'Gamma' }, { name: 'alpha' }, { name: 'beta' }] });
    const configured = await server.graphql('{ tenants(order: CONFIG) { name } }');
    expect(configured.data).toEqual({ tenants: [{ name: 'beta' }, { name: 'alpha' }, { name: 'Gamma' }] });
  });

  it('returns a typed NotFoundError for an unknown tenant', async () => {
    const result = await server.graphql(
      'query($n: String!) { tenant(name: $n) { __typename ... on Tenant { name } ... on NotFoundError { message resource key } } }',
      { n: 'nope' },
    );
    expect(result.data).toEqual({
      tenant: { __typename: 'NotFoundError', message: 'Tenant not found', resource: 'Tenant', key: 'nope' },
    });
  });

  it('serves GraphiQL to browsers on GET', async () => {
    const res = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('Sluice GraphQL');
  });

  it('reports the version and REST shape in info', async () => {
    const result = await server.graphql<{ info: { version: string; restShape: string } }>(
      '{ info { version restShape } }',
    );
    expect(result.data?.info.restShape).toBe('current');
    expect(result.data?.info.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
