/**
 * REST launcher runtime endpoints (docs/rest.md#nodes-nodeset-requests-and-image-actions,
 * docs/rest.md#deliberate-differences-from-the-reference) on the real server: list shapes validated against the served
 * OpenAPI document, admin gating, success statuses and bodies, and the 400/404/409 texts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { REST_ROUTES } from '../../rest-compat';
import { openApiPath } from '../../rest-compat/openapi';
import { type ServiceConfig } from '../../src/config/service';
import { createLauncher, type Launcher } from '../../src/launcher/launcher';
import { buildApp, type SluiceApp } from '../../src/server/app';
import { silentLogger } from '../../src/server/logger';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { launcherLayout, TestClock, TestLayouts } from '../helpers/launcher-layout';
import { adminToken as liveAdminToken, liveTestConfig } from '../helpers/live';

type Json = Record<string, unknown>;

describe('REST launcher runtime', () => {
  let database: TestDatabase;
  let app: SluiceApp;
  let launcher: Launcher;
  let dataDir: string;
  let clock: TestClock;
  let openapi: Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true });

  /** An admin token of `tenant`, valid at the test clock's time (which starts in the past). */
  function adminToken(tenant: string): string {
    const issuedAt = Math.floor(clock.now().getTime() / 1000);
    return liveAdminToken(tenant, { iat: issuedAt, exp: issuedAt + 30 * 86_400 });
  }

  /** A request as admin of `acme` unless another token (or none) is given. */
  async function call(
    method: string,
    apiPath: string,
    options: { token?: string | null; body?: unknown } = {},
  ): Promise<Response> {
    const token = options.token === undefined ? adminToken('acme') : options.token;
    const headers: Record<string, string> = {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    };
    return fetch(`${app.url()}/api/tenant/${apiPath}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  }

  async function expectError(res: Response, status: number, description: string): Promise<void> {
    expect(res.status).toBe(status);
    expect(((await res.json()) as Json).description).toBe(description);
  }

  /** The response schema the served OpenAPI document declares for a route's GET. */
  function listSchema(routeName: string): Json {
    const route = REST_ROUTES.find((candidate) => candidate.name === routeName);
    expect(route).toBeDefined();
    const paths = openapi.paths as Record<
      string,
      Record<string, { responses: Record<string, { content: Record<string, { schema: Json }> }> }>
    >;
    return paths[openApiPath(route ?? REST_ROUTES[0], 'current')].get.responses['200'].content['application/json']
      .schema;
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'sluice-rest-launcher-'));
    database = await createTestDatabase({ migrate: false });
    const config: ServiceConfig = { ...liveTestConfig(), dataDir, connections: { local: { driver: 'local' } } };
    const layouts = new TestLayouts(
      launcherLayout({
        tenant: 'acme',
        images: [
          { name: 'debian', type: 'cloud' },
          { name: 'built', type: 'zuul' },
        ],
        flavors: ['normal'],
        labels: [{ name: 'small', image: 'debian', flavor: 'normal' }],
        sections: [{ name: 'local-section', connection: 'local' }],
        providers: [
          {
            name: 'local-main',
            section: 'local-section',
            config: {
              labels: ['small'],
              images: ['debian', 'built'],
              flavors: ['normal'],
              'resource-limits': { instances: 4 },
            },
          },
        ],
      }),
      launcherLayout({ tenant: 'other' }),
      // The reference fixture's names for docs/rest.md#current-shape-cases #31: provider test-provider serving label
      // label1.
      launcherLayout({
        tenant: 'tenant-one',
        images: [{ name: 'image1', type: 'cloud' }],
        flavors: ['flavor1'],
        labels: [{ name: 'label1', image: 'image1', flavor: 'flavor1' }],
        sections: [{ name: 'test-section', connection: 'local' }],
        providers: [
          {
            name: 'test-provider',
            section: 'test-section',
            config: { labels: ['label1'], images: ['image1'], flavors: ['flavor1'] },
          },
        ],
      }),
    );
    clock = new TestClock();
    app = buildApp({ config, database, logger: silentLogger(), now: clock.now, tenants: layouts });
    await app.start(0, '127.0.0.1');
    launcher = createLauncher({ config, knex: database.knex, layouts, now: clock.now });
    await launcher.gateway.requestNodes({
      id: 'req-1',
      tenant: 'acme',
      pipeline: 'check',
      buildsetUuid: 'bs1',
      jobName: 'unit',
      labels: ['small'],
      priority: 200,
    });
    await launcher.gateway.requestNodes({
      id: 'req-2',
      tenant: 'acme',
      pipeline: 'gate',
      buildsetUuid: 'bs2',
      jobName: 'lint',
      labels: ['unknown'],
      priority: 100,
    });
    await launcher.gateway.requestNodes({
      id: 'req-3',
      tenant: 'tenant-one',
      pipeline: 'check',
      buildsetUuid: 'bs3',
      jobName: 'project-test1',
      labels: ['label1'],
      priority: 200,
    });
    await launcher.runOnce();
    openapi = (await (await fetch(`${app.url()}/api/openapi.json?shape=current`)).json()) as Json;
    // Creating and migrating the embedded database is slow on a busy machine.
  }, 120_000);

  afterAll(async () => {
    await launcher.stop();
    await app.stop();
    await database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists nodes and nodeset requests in the documented shape', async () => {
    const nodesRes = await call('GET', 'acme/nodes', { token: null });
    expect(nodesRes.status).toBe(200);
    expect(nodesRes.headers.get('access-control-allow-origin')).toBe('*');
    const nodes = (await nodesRes.json()) as Json[];
    expect(ajv.validate(listSchema('nodes'), nodes)).toBe(true);
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({
      type: ['small'],
      label: 'small',
      provider: 'git.example.com%2Forg%2Fconfig/local-main',
      lock_holder: null,
    });
    expect(nodes[0].id).toBe(nodes[0].uuid);
    expect(nodes[0].state_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);

    const requestsRes = await call('GET', 'acme/nodeset-requests', { token: null });
    expect(requestsRes.status).toBe(200);
    const requests = (await requestsRes.json()) as Json[];
    expect(ajv.validate(listSchema('nodeset-requests'), requests)).toBe(true);
    expect(requests.map((request) => request.uuid).sort()).toEqual(['req-1', 'req-2']);
    const first = requests.find((request) => request.uuid === 'req-1');
    expect(first).toMatchObject({
      pipeline_name: 'check',
      buildset_uuid: 'bs1',
      job_name: 'unit',
      labels: ['small'],
      priority: 200,
    });
    expect(first?.request_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);

    await expectError(await call('GET', 'ghost/nodes'), 404, 'Tenant not found');
  });

  it('lists the node of label label1 from test-provider (case 31, current node record)', async () => {
    const res = await call('GET', 'tenant-one/nodes', { token: null });
    expect(res.status).toBe(200);
    const nodes = (await res.json()) as Json[];
    expect(ajv.validate(listSchema('nodes'), nodes)).toBe(true);
    expect(nodes.length).toBeGreaterThan(0);
    // Sluice has only launcher nodes: `type` is the label list and `provider` the provider's canonical
    // name (the reference's legacy Nodepool record, with the short name, has no source here).
    expect(nodes[0]).toMatchObject({
      type: ['label1'],
      label: 'label1',
      provider: 'git.example.com%2Forg%2Fconfig/test-provider',
    });
    // Nodes are listed per tenant: the other tenants' lists do not hold it.
    const acme = (await (await call('GET', 'acme/nodes', { token: null })).json()) as Json[];
    expect(acme.map((node) => node.label)).toEqual(['small']);
  });

  it('holds and releases nodes as tenant admin only', async () => {
    const [node] = (await (await call('GET', 'acme/nodes')).json()) as Json[];
    const nodePath = `acme/nodes/${String(node.uuid)}`;
    expect((await call('PUT', nodePath, { token: null, body: { state: 'hold' } })).status).toBe(401);
    expect((await call('PUT', nodePath, { token: adminToken('other'), body: { state: 'hold' } })).status).toBe(403);
    await expectError(await call('PUT', nodePath, { body: { state: 'ready' } }), 400, 'Invalid request body');
    await expectError(await call('PUT', nodePath), 400, 'Invalid request body');
    await expectError(await call('PUT', 'acme/nodes/nope', { body: { state: 'hold' } }), 404, 'Node not found');

    const held = await call('PUT', nodePath, { body: { state: 'hold' } });
    expect(held.status).toBe(201);
    expect(await held.json()).toBeNull();
    const listed = (await (await call('GET', 'acme/nodes')).json()) as Json[];
    expect(listed.find((candidate) => candidate.uuid === node.uuid)?.state).toBe('hold');

    const released = await call('PUT', nodePath, { body: { state: 'used' } });
    expect(released.status).toBe(201);
    expect(await released.json()).toBeNull();
  });

  it('cancels nodeset requests as tenant admin only', async () => {
    expect((await call('DELETE', 'acme/nodeset-requests/req-2', { token: null })).status).toBe(401);
    await expectError(await call('DELETE', 'acme/nodeset-requests/nope'), 404, 'Request not found');
    const canceled = await call('DELETE', 'acme/nodeset-requests/req-2');
    expect(canceled.status).toBe(204);
    expect(await canceled.text()).toBe('');
  });

  it('requests image builds', async () => {
    expect((await call('POST', 'acme/image/built/build', { token: null })).status).toBe(401);
    await expectError(await call('POST', 'acme/image/debian/build'), 404, 'Image not found in tenant');
    const built = await call('POST', 'acme/image/built/build');
    expect(built.status).toBe(200);
    expect(await built.json()).toBeNull();
  });

  it('validates and deletes uploads and artifacts of the build tenant', async () => {
    const images = launcher.context.repos.images;
    const now = new Date(clock.now());
    await images.createArtifact(
      {
        uuid: 'art-1',
        tenant: 'acme',
        canonicalName: 'git.example.com%2Forg%2Fconfig/built',
        name: 'built',
        projectCanonicalName: null,
        projectBranch: null,
        buildUuid: 'build-1',
        artifactName: 'built image',
        format: 'raw',
        md5sum: 'md5',
        sha256: 'sha',
        url: 'file:///nonexistent/built.raw',
        timestamp: now,
        validated: false,
      },
      now,
    );
    await images.createUpload(
      {
        uuid: 'up-1',
        artifactUuid: 'art-1',
        canonicalName: 'git.example.com%2Forg%2Fconfig/built',
        endpointName: 'local/local-main',
        providers: [],
        configHash: null,
        validated: false,
      },
      now,
    );

    expect((await call('POST', 'acme/image-upload/up-1/validate', { token: null })).status).toBe(401);
    await expectError(await call('POST', 'acme/image-upload/nope/validate'), 404, 'Image upload not found in tenant');
    expect((await call('POST', 'acme/image-upload/up-1/validate')).status).toBe(409);
    await images.updateUpload('up-1', { state: 'ready' }, now);
    const validated = await call('POST', 'acme/image-upload/up-1/validate');
    expect(validated.status).toBe(200);
    expect(await validated.json()).toBeNull();

    await expectError(
      await call('DELETE', 'other/image-upload/up-1', { token: adminToken('other') }),
      404,
      'Image upload not found in tenant',
    );
    expect((await call('DELETE', 'acme/image-upload/up-1', { token: null })).status).toBe(401);
    expect((await call('DELETE', 'acme/image-upload/up-1')).status).toBe(204);

    await expectError(
      await call('DELETE', 'other/image-build-artifact/art-1', { token: adminToken('other') }),
      404,
      'Image build artifact not found in tenant',
    );
    expect((await call('DELETE', 'acme/image-build-artifact/art-1', { token: null })).status).toBe(401);
    expect((await call('DELETE', 'acme/image-build-artifact/art-1')).status).toBe(204);
  });
});
