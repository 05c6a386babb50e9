import { startTestServer, type TestServer } from '../helpers/server';

describe('REST basics', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server.stop();
  });

  it('serves /api/info in the current shape by default', async () => {
    const res = await fetch(`${server.url}/api/info`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-sluice-api-shape')).toBe('current');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const body = (await res.json()) as { info: Record<string, unknown> };
    expect(body.info).toEqual({
      capabilities: {
        job_history: true,
        auth: { realms: {}, default_realm: null, read_protected: false, auth_log_file_requests: false },
      },
      stats: { url: null, prefix: null, type: 'graphite' },
      websocket_url: null,
      sluice: { version: expect.any(String), rest_shape: 'current' },
    });
  });

  it('serves the earlier shape on request and says so', async () => {
    const res = await fetch(`${server.url}/api/info`, { headers: { 'X-Sluice-Api-Shape': 'earlier' } });
    expect(res.headers.get('x-sluice-api-shape')).toBe('earlier');
    const body = (await res.json()) as { info: { capabilities: Record<string, unknown> } };
    expect(body.info.capabilities).toEqual({ job_history: true });
  });

  it('rejects an unknown shape header with 400', async () => {
    const res = await fetch(`${server.url}/api/info`, { headers: { 'X-Sluice-Api-Shape': 'future' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'BadRequest',
      description: 'X-Sluice-Api-Shape must be "current" or "earlier"',
    });
  });

  it('tolerates repeated slashes', async () => {
    expect((await fetch(`${server.url}/api//info`)).status).toBe(200);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await fetch(`${server.url}/api/nope/nothing`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'NotFound', description: 'No API endpoint at /api/nope/nothing' });
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const res = await fetch(`${server.url}/api/info`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await res.json()).toEqual({
      error: 'MethodNotAllowed',
      description: 'Specified method is invalid for this resource',
    });
  });

  it('answers a CORS preflight with 204', async () => {
    const res = await fetch(`${server.url}/api/info`, { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, X-Requested-With');
    expect(res.headers.get('access-control-max-age')).toBe('86400');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('echoes a sane incoming request id', async () => {
    const res = await fetch(`${server.url}/api/info`, { headers: { 'X-Request-Id': 'abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
  });
});
