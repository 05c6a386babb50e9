/** REST over the live engine: error paths (unknown tenant, authentication, validation texts). */
import { adminToken } from '../helpers/live';
import { restEngineServer } from '../helpers/rest-engine-server';

describe('REST over the engine: errors', () => {
  const fixture = restEngineServer();
  const { T, request, post } = fixture;

  const expectError = async (res: Response, status: number, description: string | RegExp): Promise<void> => {
    const body = (await res.json()) as { description: string };
    expect({ status: res.status, description: body.description }).toEqual({
      status,
      description: typeof description === 'string' ? description : expect.stringMatching(description),
    });
  };

  it('unknown tenant -> 404 Tenant not found (status, status/change, state, autohold)', async () => {
    for (const path of ['status', 'status/change/1,1', 'state', 'autohold', 'autohold/1']) {
      await expectError(await request(`/api/tenant/nobody/${path}`), 404, 'Tenant not found');
    }
  });

  it('fixture.admin endpoints: 401 without a token (WWW-Authenticate), 403 for another tenant fixture.admin', async () => {
    const missing = await post(`${T()}/project/org/project/enqueue`, { pipeline: 'gate', change: '1,1' }, null);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const deleteAnonymous = await request(`${T()}/autohold/12345`, 'current', { method: 'DELETE' });
    expect(deleteAnonymous.status).toBe(401);
    for (const path of ['state', 'promote', 'project/org/project/dequeue', 'project/org/project/autohold']) {
      const res = await post(
        `${T()}/${path}`,
        {
          pipeline: 'gate',
          changes: [],
          change: '1,1',
          job: 'unit',
          count: 1,
          reason: 'x',
          node_hold_expiration: null,
        },
        adminToken('other-tenant'),
      );
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
    }
  });

  it('enqueue/dequeue/promote validation: 400 texts, 404 Unknown project, 415, 405', async () => {
    const enqueue = `${T()}/project/org/project/enqueue`;
    await expectError(await post(enqueue, { change: '1,1' }), 400, 'Invalid request body');
    await expectError(await post(enqueue, { pipeline: 'nope', change: '1,1' }), 400, 'Unknown pipeline');
    await expectError(await post(enqueue, { pipeline: 'gate' }), 400, 'Invalid request body');
    await expectError(
      await post(`${T()}/project/org/nope/enqueue`, { pipeline: 'gate', change: '1,1' }),
      404,
      'Unknown project',
    );
    const notJson = await request(
      enqueue,
      'current',
      { method: 'POST', body: 'pipeline=gate', headers: { 'Content-Type': 'text/plain' } },
      fixture.admin,
    );
    expect(notJson.status).toBe(415);
    await expectError(
      await request(
        enqueue,
        'current',
        { method: 'POST', body: '{', headers: { 'Content-Type': 'application/json' } },
        fixture.admin,
      ),
      400,
      'Invalid JSON document',
    );
    const put = await request(enqueue, 'current', { method: 'PUT' }, fixture.admin);
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('POST, GET, HEAD, OPTIONS');

    const dequeue = `${T()}/project/org/project/dequeue`;
    await expectError(
      await post(dequeue, { pipeline: 'gate', change: '1,1', ref: 'refs/heads/master' }),
      400,
      'Invalid request body',
    );
    await expectError(await post(dequeue, { pipeline: 'gate' }), 400, 'Invalid request body');
    await expectError(await post(dequeue, { pipeline: 'nope', change: '1,1' }), 400, 'Unknown pipeline');
    await expectError(await post(`${T()}/promote`, { changes: ['1,1'] }), 400, 'Unknown pipeline');
    await expectError(await post(`${T()}/promote`, { pipeline: 'nope', changes: ['1,1'] }), 400, 'Unknown pipeline');
    const options = await request(`${T()}/promote`, 'current', { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('access-control-allow-methods')).toBe('POST, GET, OPTIONS');
  });

  it('autohold validation and 404 texts', async () => {
    const create = `${T()}/project/org/project/autohold`;
    const valid = { job: 'unit', count: 1, reason: 'x', node_hold_expiration: null };
    await expectError(
      await post(create, { ...valid, change: '1', ref: 'refs/heads/master' }),
      400,
      'change and ref are mutually exclusive',
    );
    await expectError(await post(create, { job: 'unit', count: 1, reason: 'x' }), 400, 'Invalid request body');
    await expectError(await post(create, { ...valid, count: -1 }), 400, 'Count must be greater than 0');
    await expectError(await post(create, { ...valid, ref: '*abc' }), 400, /regular expression/);
    await expectError(await post(`${T()}/project/org/nope/autohold`, valid), 404, 'Unknown project');
    await expectError(await request(`${T()}/autohold/12345`), 404, 'Hold request 12345 not found.');
    await expectError(
      await request(`${T()}/autohold/invalidid`, 'current', { method: 'DELETE' }, fixture.admin),
      404,
      /not found/,
    );
  });
});
