/**
 * The authentication cases of compat.md §8.1 over REST for a read-protected api-root and tenant (#10,
 * #54, #66), against a real server that loads its tenant file over real git repositories and runs its
 * own engine. Token texts and the 401 layout: docs/security.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { REST_ROUTES } from '../../../rest-compat';
import type { HttpMethod } from '../../../rest-compat/route';
import { buildLogDir, JOB_OUTPUT_FILE } from '../../../src/executor/log-paths';
import { BuildRequestRepository } from '../../../src/store/repositories/build-requests';
import { buildParams } from '../../helpers/build-params';
import type { TestServer } from '../../helpers/server';
import {
  type Json,
  OPERATOR,
  token,
  operatorToken,
  type Setup,
  startServer,
  SOURCE,
  call,
  json,
  expect401,
  expect403,
} from '../../helpers/rest-auth';

describe('REST auth contract (compat.md §8.1): read-protected api-root and tenant', () => {
  let setup: Setup;
  let server: TestServer;
  const READER = { groups: ['users'] };

  beforeAll(async () => {
    setup = await startServer(
      `
- authorization-rule:
    name: users-rule
    conditions:
      - groups: users
- api-root:
    access-rules:
      - users-rule
- tenant:
    name: tenant-one
    access-rules:
      - users-rule${SOURCE}
- tenant:
    name: tenant-two
    access-rules:
      - users-rule
`,
      [OPERATOR],
    );
    server = setup.server;
  }, 120_000);

  afterAll(async () => {
    await server.stop();
    setup.git.cleanup();
  });

  const concrete = (pattern: string): string =>
    pattern.replace(
      /\{([a-z_]+)(?::\.\*)?\}/g,
      (_all, name: string) =>
        ({
          tenant_name: 'tenant-one',
          project_name: 'org/project',
          branch_name: 'master',
          pipeline_name: 'check',
          job_name: 'base',
          change: '1,1',
        })[name] ?? '1',
    );

  const endpoints = REST_ROUTES.flatMap((route) =>
    (Object.entries(route.endpoints) as Array<[HttpMethod, { auth: string }]>).map(([method, endpoint]) => ({
      route,
      method,
      auth: endpoint.auth,
    })),
  );

  it('#10: only info, tenant info and the OpenAPI document are never protected', () => {
    expect(
      endpoints
        .filter((e) => e.auth === 'none')
        .map((e) => e.route.name)
        .sort(),
    ).toEqual(['info', 'openapi', 'tenant_info']);
  });

  it.each(
    endpoints
      .filter((e) => e.auth !== 'none')
      .map((e): [string, HttpMethod, string] => [e.route.name, e.method, e.route.pattern]),
  )('#10: anonymous %s %s -> 401', async (_name, method, pattern) => {
    const body = method === 'GET' || method === 'DELETE' ? undefined : {};
    await expect401(await call(server, concrete(pattern), { method, body }), 'MissingAuthError');
  });

  it('#10: info and tenant info answer with read_protected true; a reader reads', async () => {
    for (const route of ['info', 'tenant/tenant-one/info']) {
      const info = await json<{ info: { capabilities: { auth: { read_protected: boolean } } } }>(
        await call(server, route),
      );
      expect(info.info.capabilities.auth.read_protected).toBe(true);
    }
    const reader = token(OPERATOR, READER);
    expect(await json(await call(server, 'tenants', { token: reader }))).toEqual([
      { name: 'tenant-one' },
      { name: 'tenant-two' },
    ]);
    expect(await json(await call(server, 'tenant/tenant-one/builds', { token: reader }))).toEqual([]);
    await expect403(await call(server, 'tenant/tenant-one/builds', { token: token(OPERATOR) }));
  });

  it('#54: T/authorizations answers 403 to a valid token that may not read the tenant', async () => {
    await expect403(
      await call(server, 'tenant/tenant-one/authorizations', { token: operatorToken(['tenant-whatever']) }),
    );
    expect(
      await json(await call(server, 'tenant/tenant-one/authorizations', { token: operatorToken(['tenant-one']) })),
    ).toEqual({ zuul: { admin: true, scope: ['tenant-one'] } });
  });

  it('#66: the console stream checks the token of its first message on a read-protected tenant', async () => {
    const consoleClose = (message: Json): Promise<{ code: number; reason: string }> =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/tenant/tenant-one/console-stream`);
        ws.on('open', () => ws.send(JSON.stringify(message)));
        ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
        ws.on('error', reject);
      });
    const build = { uuid: 'ca000000000000000000000000000001', logfile: 'console.log' };
    expect(await consoleClose(build)).toEqual({ code: 4000, reason: 'MissingAuthError' });
    expect(await consoleClose({ ...build, token: 'garbage' })).toEqual({
      code: 4000,
      reason: 'AuthTokenUndecodedException',
    });
    expect(await consoleClose({ ...build, token: token(OPERATOR) })).toEqual({
      code: 4000,
      reason: 'Authorization error',
    });
    // Allowed to read: the build lookup answers (this build does not exist).
    expect(await consoleClose({ ...build, token: token(OPERATOR, READER) })).toEqual({
      code: 4011,
      reason: 'Build not found',
    });
  });

  it("#66: a valid token streams the whole log of a finished build; on another tenant's path the build is not found", async () => {
    const uuid = 'ca000000000000000000000000000066';
    const log = 'first line\nsecond line: héllo\nlast line\n';
    const { knex } = server.app.services;
    // Recorded as completed in one transaction, so no executor of this server claims it.
    await knex.transaction(async (trx) => {
      await new BuildRequestRepository(knex).create(
        buildParams({ params: { tenant: 'tenant-one', buildUuid: uuid } }),
        {},
        trx,
      );
      await trx('build_requests').where({ build_uuid: uuid }).update({ state: 'completed', result: 'SUCCESS' });
    });
    const dir = buildLogDir(server.app.services.config.logs.dir as string, 'tenant-one', uuid);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, JOB_OUTPUT_FILE), log);

    const stream = (tenant: string): Promise<{ text: string; code: number; reason: string }> =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/tenant/${tenant}/console-stream`);
        const received: string[] = [];
        ws.on('open', () => ws.send(JSON.stringify({ uuid, logfile: 'console.log', token: token(OPERATOR, READER) })));
        ws.on('message', (data) => received.push(data.toString()));
        ws.on('close', (code, reason) => resolve({ text: received.join(''), code, reason: reason.toString() }));
        ws.on('error', reject);
      });
    expect(await stream('tenant-one')).toEqual({ text: log, code: 1000, reason: 'No more data' });
    expect(await stream('tenant-two')).toEqual({ text: '', code: 4011, reason: 'Build not found' });
  });
});
