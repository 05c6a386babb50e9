/**
 * Semaphores and launcher objects in GraphQL, through a real server whose LayoutManager loads the
 * schema-tenant fixture from real git repositories (test/helpers/schema-tenant.ts).
 */
import { useSchemaTenantServer } from '../../helpers/schema-tenant';

const env = useSchemaTenantServer();
const { tenantQuery } = env;

describe('semaphores', () => {
  beforeAll(async () => {
    const acquired = new Date('2026-01-01T00:00:00Z');
    await env.server.app.database.knex('semaphore_holders').insert([
      {
        tenant: null,
        semaphore: 'global-lock',
        global: true,
        holder_tenant: 'acme',
        buildset_uuid: 'b1',
        job_name: 'project-test1',
        acquired,
      },
      {
        tenant: null,
        semaphore: 'global-lock',
        global: true,
        holder_tenant: 'acme',
        buildset_uuid: 'b2',
        job_name: 'project-test2',
        acquired,
      },
      {
        tenant: null,
        semaphore: 'global-lock',
        global: true,
        holder_tenant: 'other',
        buildset_uuid: 'b3',
        job_name: 'noop',
        acquired,
      },
      {
        tenant: 'acme',
        semaphore: 'test-lock',
        global: false,
        holder_tenant: 'acme',
        buildset_uuid: 'b1',
        job_name: 'project-test2',
        acquired,
      },
      // Another tenant's local semaphore of the same name is not ours.
      {
        tenant: 'other',
        semaphore: 'test-lock',
        global: false,
        holder_tenant: 'other',
        buildset_uuid: 'b4',
        job_name: 'noop',
        acquired,
      },
    ]);
  });

  it('lists local and global semaphores sorted by name with their holders', async () => {
    const tenant = await tenantQuery<{ semaphores: unknown[] }>(
      'semaphores { name global max holders { count thisTenant { buildsetUuid jobName acquired } otherTenants } }',
    );
    expect(tenant.semaphores).toEqual([
      {
        name: 'global-lock',
        global: true,
        max: 3,
        holders: {
          count: 3,
          thisTenant: [
            { buildsetUuid: 'b1', jobName: 'project-test1', acquired: '2026-01-01T00:00:00.000Z' },
            { buildsetUuid: 'b2', jobName: 'project-test2', acquired: '2026-01-01T00:00:00.000Z' },
          ],
          otherTenants: 1,
        },
      },
      {
        name: 'test-lock',
        global: false,
        max: 2,
        holders: {
          count: 1,
          thisTenant: [{ buildsetUuid: 'b1', jobName: 'project-test2', acquired: '2026-01-01T00:00:00.000Z' }],
          otherTenants: 0,
        },
      },
    ]);
  });

  it('shows other tenants only as a count', async () => {
    const tenant = await tenantQuery<{ semaphores: unknown[] }>(
      'semaphores { name holders { count thisTenant { buildsetUuid } otherTenants } }',
      undefined,
      'other',
    );
    expect(tenant.semaphores).toEqual([
      { name: 'global-lock', holders: { count: 3, thisTenant: [{ buildsetUuid: 'b3' }], otherTenants: 2 } },
      { name: 'test-lock', holders: { count: 1, thisTenant: [{ buildsetUuid: 'b4' }], otherTenants: 0 } },
    ]);
  });
});

describe('launcher objects', () => {
  const LOCAL_IMAGE = 'review.example.com%2Flauncher-config/debian-local';

  beforeAll(async () => {
    const at = new Date('2026-02-01T10:00:00Z');
    const knex = env.server.app.database.knex;
    await knex('image_build_artifacts').insert({
      uuid: 'a1',
      tenant: 'acme',
      canonical_name: LOCAL_IMAGE,
      build_uuid: 'build-1',
      format: 'qcow2',
      md5sum: 'md5',
      sha256: 'sha',
      url: 'https://artifacts.example.com/debian-local.qcow2',
      state: 'ready',
      state_time: at,
      timestamp: at,
      validated: true,
      lock_holder: null,
    });
    await knex('image_uploads').insert({
      uuid: 'u1',
      artifact_uuid: 'a1',
      canonical_name: LOCAL_IMAGE,
      endpoint_name: 'aws-main/us-east-1',
      external_id: 'ami-0abc',
      state: 'uploading',
      state_time: at,
      timestamp: at,
      validated: false,
      lock_holder: 'launcher-1',
    });
  });

  it('lists labels and flavors in configuration order', async () => {
    const tenant = await tenantQuery<{ labels: unknown; flavors: unknown }>(
      'labels { name canonicalName description image flavor minReady maxReadyAge } flavors { name canonicalName description }',
    );
    expect(tenant.labels).toEqual([
      {
        name: 'debian-normal',
        canonicalName: 'review.example.com%2Flauncher-config/debian-normal',
        description: null,
        image: 'debian',
        flavor: 'normal',
        minReady: 1,
        maxReadyAge: 0,
      },
    ]);
    expect(tenant.flavors).toEqual([
      { name: 'normal', canonicalName: 'review.example.com%2Flauncher-config/normal', description: '2 CPUs, 4 GB.' },
    ]);
  });

  const IMAGE = `name canonicalName projectCanonicalName branch type description
    buildArtifacts { uuid canonicalName buildTenant buildUuid format md5sum sha256 url timestamp validated state stateTime isLocked lockHolder
      uploads { uuid canonicalName artifactUuid endpointName externalId timestamp validated state stateTime isLocked lockHolder } }`;

  it('lists images with their build artifacts and uploads', async () => {
    const tenant = await tenantQuery<{ images: unknown[] }>(`images { ${IMAGE} }`);
    expect(tenant.images).toEqual([
      {
        name: 'debian',
        canonicalName: 'review.example.com%2Flauncher-config/debian',
        projectCanonicalName: 'review.example.com/launcher-config',
        branch: 'master',
        type: 'CLOUD',
        description: 'Stock Debian image of the cloud.',
        buildArtifacts: [],
      },
      {
        name: 'debian-local',
        canonicalName: LOCAL_IMAGE,
        projectCanonicalName: 'review.example.com/launcher-config',
        branch: 'master',
        type: 'ZUUL',
        description: null,
        buildArtifacts: [
          {
            uuid: 'a1',
            canonicalName: LOCAL_IMAGE,
            buildTenant: true,
            buildUuid: 'build-1',
            format: 'qcow2',
            md5sum: 'md5',
            sha256: 'sha',
            url: 'https://artifacts.example.com/debian-local.qcow2',
            timestamp: '2026-02-01T10:00:00.000Z',
            validated: true,
            state: 'READY',
            stateTime: '2026-02-01T10:00:00.000Z',
            isLocked: false,
            lockHolder: null,
            uploads: [
              {
                uuid: 'u1',
                canonicalName: LOCAL_IMAGE,
                artifactUuid: 'a1',
                endpointName: 'aws-main/us-east-1',
                externalId: 'ami-0abc',
                timestamp: '2026-02-01T10:00:00.000Z',
                validated: false,
                state: 'UPLOADING',
                stateTime: '2026-02-01T10:00:00.000Z',
                isLocked: true,
                lockHolder: 'launcher-1',
              },
            ],
          },
        ],
      },
    ]);
  });

  it('marks artifacts built by another tenant', async () => {
    const tenant = await tenantQuery<{
      images: { name: string; buildArtifacts: { uuid: string; buildTenant: boolean }[] }[];
    }>('images { name buildArtifacts { uuid buildTenant } }', undefined, 'other');
    expect(tenant.images).toEqual([
      { name: 'debian', buildArtifacts: [] },
      { name: 'debian-local', buildArtifacts: [{ uuid: 'a1', buildTenant: false }] },
    ]);
  });

  it('lists providers with their images, labels and flavors', async () => {
    const tenant = await tenantQuery<{ providers: unknown[] }>(
      'providers { name canonicalName section images { name type buildArtifacts { uuid } } labels { name canonicalName } flavors { name canonicalName } }',
    );
    expect(tenant.providers).toEqual([
      {
        name: 'aws-main',
        canonicalName: 'review.example.com%2Flauncher-config/aws-main',
        section: 'main-section',
        images: [
          { name: 'debian', type: 'CLOUD', buildArtifacts: [] },
          { name: 'debian-local', type: 'ZUUL', buildArtifacts: [{ uuid: 'a1' }] },
        ],
        labels: [{ name: 'debian-normal', canonicalName: 'review.example.com%2Flauncher-config/debian-normal' }],
        flavors: [{ name: 'normal', canonicalName: 'review.example.com%2Flauncher-config/normal' }],
      },
    ]);
  });
});

describe('secrets', () => {
  it('never appear in any response of this file', () => {
    expect(env.bodies.length).toBeGreaterThan(0);
    env.expectNoSecretInResponses();
  });
});
