/**
 * The GitHub driver through the real server and the fake GitHub (docs/github.md): a pull
 * request opened runs `check` and gets its status and check run; an approval and a label bring
 * it into `gate`, which merges it through the API; a failing job reports failure and a comment
 * and does not merge; deliveries are stored once; a bad signature is refused and nothing is
 * stored or enqueued.
 */
import { createHmac } from 'node:crypto';
import {
  appFiles,
  GITHUB_PIPELINES,
  lastStatus,
  startGitHubTenant,
  tenantYaml,
  until,
  WEBHOOK_SECRET,
  type GitHubTenant,
} from '../../helpers/github-tenant';

jest.setTimeout(240_000);

describe('GitHub driver end to end', () => {
  let env: GitHubTenant;

  beforeAll(async () => {
    env = await startGitHubTenant({
      repos: { 'org/config': { 'zuul.yaml': GITHUB_PIPELINES }, 'org/app': appFiles() },
      tenantFile: tenantYaml('org/config', ['org/app']),
    });
  });

  afterAll(async () => {
    await env?.stop();
  });

  const status = (sha: string, context: string) => lastStatus(env.hub, 'org/app', sha, context);

  it('reports check results on an opened pull request', async () => {
    const { hub } = env;
    const pull = await hub.openPull('org/app', { title: 'Add feature', files: { 'feature.txt': 'x\n' } });
    expect(hub.deliveries.at(-1)?.status).toBe(200);
    const run = await until('the check run', () =>
      hub.repo('org/app').checkRuns.find((r) => r.headSha === pull.headSha && r.status === 'completed'),
    );
    expect(run).toMatchObject({ name: 'acme/check', conclusion: 'success' });
    expect(run.output?.summary).toContain('unit: SUCCESS');
    const reported = status(pull.headSha, 'acme/check');
    expect(reported?.state).toBe('success');
    expect(reported?.targetUrl).toMatch(/^https:\/\/sluice\.example\.com\/t\/acme\/buildset\/[0-9a-f-]+$/);
    const states = (hub.repo('org/app').statuses.get(pull.headSha) ?? []).filter((s) => s.context === 'acme/check');
    expect(states.map((s) => s.state)).toEqual(['pending', 'success']);
  });

  it('gates an approved and labelled pull request and merges it through the API', async () => {
    const { hub } = env;
    const pull = hub.pull('org/app', 1);
    await hub.review('org/app', 1, 'reviewer', 'APPROVED');
    await hub.label('org/app', 1, 'gate');
    await until('merge', () => pull.merged);
    expect(status(pull.headSha, 'acme/gate')?.state).toBe('success');
    const merge = hub.requests.find((r) => r.method === 'PUT' && r.path === '/repos/org/app/pulls/1/merge');
    expect(merge?.body).toMatchObject({ merge_method: 'squash', sha: pull.headSha });
    // Nobody used the admin API: the only enqueues were the webhooks' trigger events.
    const management = await env.server.database.knex('engine_events').where({ category: 'management' }).count();
    expect(Number(Object.values(management[0])[0])).toBe(0);
  });

  it('reports a failing job with a failure status and a comment, and does not merge', async () => {
    const { hub } = env;
    const pull = await hub.openPull('org/app', { title: 'Break it', files: { FAIL: 'yes\n' } });
    await until('check failure', () => status(pull.headSha, 'acme/check')?.state === 'failure');
    await hub.review('org/app', pull.number, 'reviewer', 'APPROVED');
    await hub.label('org/app', pull.number, 'gate');
    await until('gate failure', () => status(pull.headSha, 'acme/gate')?.state === 'failure');
    await until('the failure comment', () => pull.comments.some((c) => /unit.*FAILURE/s.test(c.body)));
    expect(pull.merged).toBe(false);
    expect(hub.requests.some((r) => r.method === 'PUT' && r.path.endsWith(`/pulls/${pull.number}/merge`))).toBe(false);
  });

  it('stores a signed delivery once and turns it into a trigger event', async () => {
    const { hub, server } = env;
    const pull = await hub.openPull('org/app', { title: 'Docs', files: { 'docs.txt': 'x\n' } });
    const delivery = hub.deliveries.at(-1);
    expect(delivery?.status).toBe(200);
    await server.app.roles?.connectionEvents.idle();
    const stored = await server.database
      .knex('connection_events')
      .where({ delivery: delivery?.id })
      .select('event_type', 'outcome');
    expect(stored).toEqual([{ event_type: 'pull_request', outcome: 'submitted 1' }]);
    const events = await server.database.knex('engine_events').where({ event_type: 'pull_request' }).select('payload');
    expect(events.map((e: { payload: Record<string, unknown> }) => e.payload)).toContainEqual(
      expect.objectContaining({ type: 'pull_request', action: 'opened', change: pull.number, connection: 'github' }),
    );
    const again = await hub.redeliver(delivery as NonNullable<typeof delivery>);
    expect(JSON.parse(again.body)).toMatchObject({ status: 'duplicate delivery' });
    expect(await server.database.knex('connection_events').where({ delivery: delivery?.id }).select('id')).toHaveLength(
      1,
    );
  });

  it('refuses a webhook with a bad signature and stores and enqueues nothing', async () => {
    const { hub, server } = env;
    await server.app.roles?.connectionEvents.idle();
    const count = async (table: string) => Number(Object.values((await server.database.knex(table).count())[0])[0]);
    const before = { stored: await count('connection_events'), events: await count('engine_events') };
    const pull = hub.pull('org/app', 1);
    // A delivery that would enter `check` if it were accepted.
    const payload = {
      action: 'opened',
      number: pull.number,
      pull_request: await hub.pullPayload(hub.repo('org/app'), pull),
      repository: { full_name: 'org/app' },
      sender: { login: 'mallory' },
    };
    const refused = await hub.send('pull_request', payload, { secret: 'wrong' });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ error: 'InvalidSignature' });
    await server.app.roles?.connectionEvents.idle();
    expect(await count('connection_events')).toBe(before.stored);
    expect(await count('engine_events')).toBe(before.events);
  });

  it('answers malformed deliveries with a 4xx in the documented error format', async () => {
    const { server } = env;
    const post = (pathName: string, body: string, headers: Record<string, string>) =>
      fetch(`${server.url}${pathName}`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', ...headers },
      });
    const sign = (body: string) => `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;
    const hook = '/api/connection/github/payload';
    const cases: Array<[Response, number, string]> = [
      [await fetch(`${server.url}${hook}`), 405, 'MethodNotAllowed'],
      [await post('/api/connection/nope/payload', '{}', { 'x-hub-signature-256': sign('{}') }), 404, 'NotFound'],
      [await post(hook, '{}', { 'x-hub-signature-256': sign('{}') }), 400, 'BadRequest'],
      [
        await post(hook, 'not json', {
          'x-hub-signature-256': sign('not json'),
          'x-github-event': 'push',
          'x-github-delivery': 'd-1',
        }),
        400,
        'BadRequest',
      ],
      [await post(hook, '{}', { 'x-github-event': 'push', 'x-github-delivery': 'd-2' }), 401, 'InvalidSignature'],
    ];
    // A used event whose payload lacks a field Sluice reads is refused with the field named, and not stored.
    const noRef = JSON.stringify({
      before: '0'.repeat(40),
      after: '1'.repeat(40),
      repository: { full_name: 'org/app' },
    });
    const refused = await post(hook, noRef, {
      'x-hub-signature-256': sign(noRef),
      'x-github-event': 'push',
      'x-github-delivery': 'd-3',
    });
    expect([refused.status, await refused.json()]).toEqual([
      400,
      {
        error: 'BadRequest',
        description: "the push payload's ref: Invalid input: expected string, received undefined",
      },
    ]);
    expect(await server.database.knex('connection_events').where({ delivery: 'd-3' }).first()).toBeUndefined();
    for (const [res, status, error] of cases) {
      expect(res.status).toBe(status);
      expect(await res.json()).toMatchObject({ error, description: expect.any(String) });
    }
  });
});
