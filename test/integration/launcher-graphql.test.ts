/**
 * The launcher over GraphQL on the real server: layout objects (labels, flavors, providers,
 * images), the nodes and nodeset-requests connections with filters, and the admin mutations
 * with their typed errors.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServiceConfig } from '../../src/config/service';
import { createLauncher, type Launcher } from '../../src/launcher/launcher';
import { StoreNodeLocker } from '../../src/launcher/node-lock';
import { adminToken, liveTestConfig } from '../helpers/live';
import { buildApp, type SluiceApp } from '../../src/server/app';
import { silentLogger } from '../../src/server/logger';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { launcherLayout, TestClock, TestLayouts, type LauncherLayoutSpec } from '../helpers/launcher-layout';

function spec(tenant: string): LauncherLayoutSpec {
  return {
    tenant,
    images: [
      { name: 'debian', type: 'cloud' },
      { name: 'built', type: 'zuul' },
    ],
    flavors: ['normal'],
    labels: [
      { name: 'small', image: 'debian', flavor: 'normal' },
      { name: 'custom', image: 'built', flavor: 'normal' },
    ],
    sections: [{ name: 'local-section', connection: 'local' }],
    providers: [
      {
        name: 'local-main',
        section: 'local-section',
        config: {
          labels: ['small', 'custom'],
          images: ['debian', 'built'],
          flavors: ['normal'],
          'resource-limits': { instances: 4 },
        },
      },
    ],
  };
}

type GraphQLResponse = {
  data?: Record<string, unknown>;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
};

/** Tokens are checked against the test clock (2026-01-01), so they are issued then. */
const CLOCK_SECONDS = Date.parse('2026-01-01T00:00:00Z') / 1000;
const tokenAt = (tenants: string[]) =>
  adminToken(tenants[0] ?? '', { iat: CLOCK_SECONDS, exp: CLOCK_SECONDS + 86_400, zuul: { admin: tenants } });
const ADMIN = tokenAt(['acme', 'other']);

describe('launcher GraphQL', () => {
  let database: TestDatabase;
  let app: SluiceApp;
  let launcher: Launcher;
  let dataDir: string;

  /** Runs an operation as an admin of both tenants (launcher mutations require tenant admin), or anonymously. */
  async function graphql(
    query: string,
    variables: Record<string, unknown> = {},
    token: string | null = ADMIN,
  ): Promise<GraphQLResponse> {
    const headers = {
      'content-type': 'application/json',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    };
    const res = await fetch(`${app.url()}/graphql`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as GraphQLResponse;
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'sluice-launcher-gql-'));
    database = await createTestDatabase({ migrate: false });
    const config: ServiceConfig = { ...liveTestConfig(), dataDir, connections: { local: { driver: 'local' } } };
    const layouts = new TestLayouts(launcherLayout(spec('acme')), launcherLayout({ tenant: 'other' }));
    const clock = new TestClock();
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
    await launcher.runOnce();
    // The executor locks the fulfilled request's node: it is in use.
    const [node] = await launcher.context.repos.nodes.listByRequest('req-1');
    expect(await new StoreNodeLocker(database.knex, clock.now).lock([node.uuid], 'executor-1')).toBeNull();
    // Creating and migrating the embedded database is slow on a busy machine.
  }, 120_000);

  afterAll(async () => {
    await launcher.stop();
    await app.stop();
    await database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists labels, flavors, providers and images of the layout', async () => {
    const result = await graphql(`
      {
        tenant(name: "acme") {
          ... on Tenant {
            labels {
              name
              canonicalName
            }
            flavors {
              name
            }
            providers {
              name
              connection
              labels {
                name
              }
              images {
                name
              }
            }
            images {
              name
              type
              projectCanonicalName
              branch
              buildArtifacts {
                uuid
              }
            }
          }
        }
      }
    `);
    expect(result.errors).toBeUndefined();
    expect(result.data?.tenant).toEqual({
      labels: [
        { name: 'small', canonicalName: 'git.example.com%2Forg%2Fconfig/small' },
        { name: 'custom', canonicalName: 'git.example.com%2Forg%2Fconfig/custom' },
      ],
      flavors: [{ name: 'normal' }],
      providers: [
        {
          name: 'local-main',
          connection: 'local',
          labels: [{ name: 'small' }, { name: 'custom' }],
          images: [{ name: 'debian' }, { name: 'built' }],
        },
      ],
      images: [
        {
          name: 'debian',
          type: 'CLOUD',
          projectCanonicalName: 'git.example.com/org/config',
          branch: 'master',
          buildArtifacts: [],
        },
        {
          name: 'built',
          type: 'ZUUL',
          projectCanonicalName: 'git.example.com/org/config',
          branch: 'master',
          buildArtifacts: [],
        },
      ],
    });
  });

  it('pages nodes and nodeset requests with filters', async () => {
    const result = await graphql(`
      {
        tenant(name: "acme") {
          ... on Tenant {
            inUse: nodes(filter: { states: [IN_USE] }) {
              totalCount
              nodes {
                label
                state
                connectionType
                requestUuid
              }
            }
            ready: nodes(filter: { states: [READY] }) {
              totalCount
            }
            nodesetRequests {
              totalCount
              nodes {
                uuid
                state
                labels
                priority
                failureReason
                providerNodeData {
                  failedProviders
                }
              }
            }
            failed: nodesetRequests(filter: { states: [FAILED] }, first: 1) {
              nodes {
                uuid
              }
              pageInfo {
                hasNextPage
              }
            }
          }
        }
      }
    `);
    expect(result.errors).toBeUndefined();
    expect(result.data?.tenant).toEqual({
      inUse: {
        totalCount: 1,
        nodes: [{ label: 'small', state: 'IN_USE', connectionType: 'local', requestUuid: 'req-1' }],
      },
      ready: { totalCount: 0 },
      nodesetRequests: {
        totalCount: 2,
        nodes: [
          {
            uuid: 'req-2',
            state: 'FAILED',
            labels: ['unknown'],
            priority: 100,
            failureReason: 'No provider found for label unknown',
            providerNodeData: [{ failedProviders: [] }],
          },
          {
            uuid: 'req-1',
            state: 'FULFILLED',
            labels: ['small'],
            priority: 200,
            failureReason: null,
            providerNodeData: [{ failedProviders: [] }],
          },
        ],
      },
      failed: { nodes: [{ uuid: 'req-2' }], pageInfo: { hasNextPage: false } },
    });
    const other = await graphql(
      '{ tenant(name: "other") { ... on Tenant { nodes { totalCount } nodesetRequests { totalCount } } } }',
    );
    expect(other.data?.tenant).toEqual({ nodes: { totalCount: 0 }, nodesetRequests: { totalCount: 0 } });
  });

  it('holds and releases a node, with typed errors', async () => {
    const [node] = await launcher.context.repos.nodes.listByRequest('req-1');
    const hold = `mutation($input: NodeHoldInput!) { nodeHold(input: $input) { __typename ... on ProviderNode { uuid state comment } ... on Error { message } } }`;
    const anonymous = await graphql(hold, { input: { tenant: 'acme', nodeId: node.uuid } }, null);
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const otherAdmin = await graphql(hold, { input: { tenant: 'acme', nodeId: node.uuid } }, tokenAt(['other']));
    expect(otherAdmin.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await graphql(hold, { input: { tenant: 'acme', nodeId: node.uuid, comment: 'keep' } })).data).toEqual({
      nodeHold: { __typename: 'ProviderNode', uuid: node.uuid, state: 'HOLD', comment: 'keep' },
    });
    expect((await graphql(hold, { input: { tenant: 'acme', nodeId: 'nope' } })).data).toEqual({
      nodeHold: { __typename: 'NotFoundError', message: 'Node not found' },
    });
    expect((await graphql(hold, { input: { tenant: 'other', nodeId: node.uuid } }, tokenAt(['other']))).data).toEqual({
      nodeHold: { __typename: 'NotFoundError', message: 'Node not found' },
    });
    // Unknown tenants answer NotFound before any auth check (docs/security.md#who-may-do-what-rules).
    expect((await graphql(hold, { input: { tenant: 'ghost', nodeId: node.uuid } }, tokenAt(['ghost']))).data).toEqual({
      nodeHold: { __typename: 'NotFoundError', message: 'Tenant not found' },
    });
    const release = `mutation($input: NodeReleaseInput!) { nodeRelease(input: $input) { __typename ... on ProviderNode { state } ... on Error { message } } }`;
    expect((await graphql(release, { input: { tenant: 'acme', nodeId: node.uuid } })).data).toEqual({
      nodeRelease: { __typename: 'ProviderNode', state: 'USED' },
    });
  });

  it('cancels requests, builds images and validates or deletes uploads, with typed errors', async () => {
    const cancel = `mutation($input: NodesetRequestCancelInput!) { nodesetRequestCancel(input: $input) { __typename ... on LauncherOperationDone { id } ... on Error { message } } }`;
    expect(
      (await graphql(cancel, { input: { tenant: 'acme', requestId: 'req-2' } }, null)).errors?.[0]?.extensions?.code,
    ).toBe('UNAUTHENTICATED');
    expect((await graphql(cancel, { input: { tenant: 'acme', requestId: 'nope' } })).data).toEqual({
      nodesetRequestCancel: { __typename: 'NotFoundError', message: 'Request not found' },
    });
    expect((await graphql(cancel, { input: { tenant: 'acme', requestId: 'req-2' } })).data).toEqual({
      nodesetRequestCancel: { __typename: 'LauncherOperationDone', id: 'req-2' },
    });

    const build = `mutation($input: ImageBuildInput!) { imageBuild(input: $input) { __typename ... on ImageBuildRequested { eventId } ... on Error { message } } }`;
    expect((await graphql(build, { input: { tenant: 'acme', imageName: 'debian' } })).data).toEqual({
      imageBuild: { __typename: 'NotFoundError', message: 'Image not found in tenant' },
    });
    const built = await graphql(build, { input: { tenant: 'acme', imageName: 'built' } });
    expect(built.data?.imageBuild).toMatchObject({ __typename: 'ImageBuildRequested' });

    const validate = `mutation($input: ImageUploadInput!) { imageUploadValidate(input: $input) { __typename ... on Error { message } } }`;
    expect((await graphql(validate, { input: { tenant: 'acme', uploadId: 'nope' } })).data).toEqual({
      imageUploadValidate: { __typename: 'NotFoundError', message: 'Image upload not found in tenant' },
    });
    const removeUpload = `mutation($input: ImageUploadInput!) { imageUploadDelete(input: $input) { __typename ... on Error { message } } }`;
    expect((await graphql(removeUpload, { input: { tenant: 'acme', uploadId: 'nope' } })).data).toEqual({
      imageUploadDelete: { __typename: 'NotFoundError', message: 'Image upload not found in tenant' },
    });
    const removeArtifact = `mutation($input: ImageBuildArtifactDeleteInput!) { imageBuildArtifactDelete(input: $input) { __typename ... on Error { message } } }`;
    expect((await graphql(removeArtifact, { input: { tenant: 'acme', artifactId: 'nope' } })).data).toEqual({
      imageBuildArtifactDelete: { __typename: 'NotFoundError', message: 'Image build artifact not found in tenant' },
    });

    const events = await graphql('{ tenant(name: "acme") { ... on Tenant { systemEvents { nodes { eventType } } } } }');
    expect(events.data?.tenant).toEqual({
      systemEvents: {
        nodes: [
          { eventType: 'IMAGE_BUILD_REQUESTED' },
          { eventType: 'NODESET_REQUEST_CANCELED' },
          { eventType: 'NODE_RELEASED' },
          { eventType: 'NODE_HELD' },
        ],
      },
    });
  });
});
