/**
 * The launcher inside `sluice serve` (one `buildApp()` process with a tenant file): a change of
 * a tenant with a local provider runs its job in a launcher node's directory; REST shows the node
 * in use and its nodeset request fulfilled while the job runs, and the node gone afterwards; the
 * job whose label no provider serves ends NODE_FAILURE. A tenant without providers keeps the
 * built-in local node gateway: the same jobs run in the executor's own workspace. A zuul image
 * that no provider has yet is built by its image build job (the launcher's image-build trigger
 * event enters the image-build pipeline), uploaded, and a job's node boots from it. A job on a
 * two-node nodeset locks both nodes and reaches the second one through the node inventory. An
 * unvalidated upload (two-stage image build) is validated by its image's validation job on a node
 * booted from exactly that upload; a failing validation leaves it unvalidated.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServiceConfig } from '../../src/config/service';
import type { EngineDelta } from '../../src/engine/event-bus';
import { buildLogDir, JOB_OUTPUT_FILE } from '../../src/executor/log-paths';
import { LauncherNodeGateway, type LauncherNodeRequest } from '../../src/launcher/node-gateway';
import { buildApp, type SluiceApp } from '../../src/server/app';
import { silentLogger } from '../../src/server/logger';
import { git } from '../../src/sources/git-cli';
import { engineEventBusOver } from '../../subscriptions/live/engine-bridge';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { adminToken, liveTestConfig } from '../helpers/live';
import { tenantFixture, type TenantFixture } from '../helpers/tenant-fixture';

const FIXTURE = path.join(__dirname, '../fixtures/config/launcher-serve');
const PROJECT = 'org/project';

const ENQUEUE = /* GraphQL */ `
  mutation ($input: EnqueueInput!) {
    enqueue(input: $input) {
      __typename
      ... on Error {
        message
      }
    }
  }
`;

type Json = Record<string, unknown>;

interface BuildRow {
  uuid: string;
  job_name: string;
  result: string | null;
  error_detail: string | null;
}

describe('launcher in sluice serve', () => {
  let fixture: TenantFixture;
  let database: TestDatabase;
  let app: SluiceApp;
  let nodeRoot: string;
  let config: ServiceConfig;
  /** Engine deltas per tenant, and waiters for the next one. */
  const deltas = new Map<string, EngineDelta[]>();
  const waiters: Array<() => void> = [];
  /** Every node request the engine gives the launcher (the real method still runs). */
  const requestNodes = jest.spyOn(LauncherNodeGateway.prototype, 'requestNodes');

  beforeAll(async () => {
    fixture = await tenantFixture(FIXTURE);
    nodeRoot = mkdtempSync(path.join(os.tmpdir(), 'sluice-launcher-serve-'));
    config = {
      ...liveTestConfig(),
      ...fixture.config,
      connections: { ...fixture.config.connections, local: { driver: 'local', root: nodeRoot } },
    };
    database = await createTestDatabase({ migrate: false });
    app = buildApp({ config, database, logger: silentLogger(), environment: { PATH: process.env.PATH } });
    await app.start(0, '127.0.0.1');
    const bus = engineEventBusOver(app.bus, () => undefined);
    for (const tenant of ['nodes', 'plain', 'images', 'validate']) {
      deltas.set(tenant, []);
      bus.subscribe(tenant, (delta) => {
        deltas.get(tenant)?.push(delta);
        waiters.splice(0).forEach((wake) => wake());
      });
    }
  }, 120_000);

  afterAll(async () => {
    requestNodes.mockRestore();
    await app?.stop();
    await database?.destroy();
    fixture?.cleanup();
    rmSync(nodeRoot, { recursive: true, force: true });
  });

  /** Resolves with what `check` finds, checking again after every delta of any tenant. */
  async function until<T>(check: () => Promise<T | undefined>): Promise<T> {
    for (;;) {
      const seen = [...deltas.values()].reduce((sum, list) => sum + list.length, 0);
      const found = await check();
      if (found !== undefined) {
        return found;
      }
      if ([...deltas.values()].reduce((sum, list) => sum + list.length, 0) === seen) {
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    }
  }

  /** Resolves with the first delta of the tenant matching `predicate` (already seen or still to come). */
  async function delta<T extends EngineDelta>(
    tenant: string,
    predicate: (delta: EngineDelta) => delta is T,
  ): Promise<T> {
    for (;;) {
      const found = deltas.get(tenant)?.find(predicate);
      if (found) {
        return found;
      }
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  }

  const jobStarted =
    (job: string) =>
    (d: EngineDelta): d is Extract<EngineDelta, { type: 'job-started' }> =>
      d.type === 'job-started' && d.job === job;
  /** An item reported in check (tenant `images` also reports its image-build item). */
  const reported = (d: EngineDelta): d is Extract<EngineDelta, { type: 'item-reported' }> =>
    d.type === 'item-reported' && d.pipeline === 'check';

  async function pushChange(number: number, project = PROJECT): Promise<void> {
    const work = mkdtempSync(path.join(os.tmpdir(), 'sluice-launcher-serve-work-'));
    try {
      await git(os.tmpdir(), ['clone', '--quiet', path.join(fixture.reposDir, `${project}.git`), work]);
      writeFileSync(path.join(work, `change-${number}.txt`), `change ${number}\n`);
      await git(work, ['add', '--all']);
      await git(work, [
        '-c',
        'user.name=Test',
        '-c',
        'user.email=test@example.com',
        'commit',
        '--quiet',
        '-m',
        `Change ${number}`,
      ]);
      await git(work, [
        'push',
        '--quiet',
        'origin',
        `HEAD:refs/changes/${String(number).padStart(2, '0')}/${number}/1`,
      ]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }

  async function enqueue(tenant: string, number: number, project = PROJECT): Promise<void> {
    const response = await fetch(`${app.url()}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken(tenant)}` },
      body: JSON.stringify({
        query: ENQUEUE,
        variables: { input: { tenant, pipeline: 'check', project, change: `${number},1` } },
      }),
    });
    const body = (await response.json()) as { data?: { enqueue: { __typename: string } }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    expect(body.data?.enqueue.__typename).toBe('ManagementEventAccepted');
  }

  async function rest(tenant: string, resource: string): Promise<Json[]> {
    const response = await fetch(`${app.url()}/api/tenant/${tenant}/${resource}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Json[];
  }

  async function builds(tenant: string, pipeline = 'check'): Promise<BuildRow[]> {
    return database
      .knex('builds')
      .join('buildsets', 'buildsets.id', 'builds.buildset_id')
      .where({ 'buildsets.tenant': tenant, 'buildsets.pipeline': pipeline })
      .orderBy('builds.job_name')
      .select('builds.uuid', 'builds.job_name', 'builds.result', 'builds.error_detail');
  }

  function jobOutput(tenant: string, buildUuid: string): string {
    return readFileSync(
      path.join(buildLogDir(config.logs.dir ?? path.join(config.dataDir, 'logs'), tenant, buildUuid), JOB_OUTPUT_FILE),
      'utf8',
    );
  }

  it('runs a job on a launcher node, shows the node in use and removes it afterwards; an unservable label is NODE_FAILURE', async () => {
    await pushChange(1);
    await enqueue('nodes', 1);

    const started = await delta('nodes', jobStarted('on-node'));
    // The job waits for the test: the node is in use and its request fulfilled.
    const nodes = await rest('nodes', 'nodes');
    // The executor locked the node when the build started.
    expect(nodes).toEqual([
      expect.objectContaining({
        label: 'small',
        state: 'in-use',
        is_locked: true,
        connection_type: 'local',
        provider: expect.stringContaining('local-nodes'),
      }),
    ]);
    const nodeId = String(nodes[0].id);
    const nodeDir = path.join(nodeRoot, 'nodes', nodeId);
    expect(existsSync(nodeDir)).toBe(true);
    const requests = await rest('nodes', 'nodeset-requests');
    expect(requests.filter((request) => request.job_name === 'on-node')).toEqual([
      expect.objectContaining({
        state: 'fulfilled',
        labels: ['small'],
        pipeline_name: 'check',
        priority: 200,
        provider_node_data: [expect.objectContaining({ uuid: nodeId })],
      }),
    ]);

    writeFileSync(path.join(nodeDir, 'release'), '');
    const report = await delta('nodes', reported);
    expect(report.result).toBe('FAILURE');
    const rows = await builds('nodes');
    expect(rows.map((row) => [row.job_name, row.result])).toEqual([
      ['needs-gpu', 'NODE_FAILURE'],
      ['on-node', 'SUCCESS'],
    ]);
    expect(rows[0].error_detail).toMatch(/^Node\(set\) request \S+ failed$/);
    // The step ran in the node's directory.
    expect(rows[1].uuid).toBe(started.buildUuid);
    expect(jobOutput('nodes', started.buildUuid)).toContain(`workspace=${nodeDir} node=${nodeDir}`);

    // The returned node is deleted (with its directory) and its request is gone.
    await app.roles?.engine.settle('nodes');
    await app.roles?.launcher.runOnce();
    expect(await rest('nodes', 'nodes')).toEqual([]);
    expect(existsSync(nodeDir)).toBe(false);
    expect((await rest('nodes', 'nodeset-requests')).filter((request) => request.job_name === 'on-node')).toEqual([]);
  }, 120_000);

  it('locks every node of a two-node nodeset and gives the step an inventory reaching the second node', async () => {
    await pushChange(4, 'org/multi');
    await enqueue('nodes', 4, 'org/multi');
    const started = await delta('nodes', jobStarted('two-nodes'));

    // Both nodes are in use while the build runs; the request lists them in nodeset order.
    const nodes = await rest('nodes', 'nodes');
    expect(nodes).toEqual([
      expect.objectContaining({ label: 'small', state: 'in-use', is_locked: true, connection_type: 'local' }),
      expect.objectContaining({ label: 'small', state: 'in-use', is_locked: true, connection_type: 'local' }),
    ]);
    const [request] = (await rest('nodes', 'nodeset-requests')).filter((r) => r.job_name === 'two-nodes');
    expect(request).toMatchObject({ state: 'fulfilled', labels: ['small', 'small'] });
    const [controllerId, peerId] = (request.provider_node_data as Array<{ uuid: string }>).map((entry) => entry.uuid);
    expect(nodes.map((node) => node.id).sort()).toEqual([controllerId, peerId].sort());
    const controllerDir = path.join(nodeRoot, 'nodes', controllerId);
    const peerDir = path.join(nodeRoot, 'nodes', peerId);

    // The step waits for this file in the directory the inventory gives for node "peer".
    writeFileSync(path.join(peerDir, 'release'), '');
    const report = await delta(
      'nodes',
      (d): d is Extract<EngineDelta, { type: 'item-reported' }> =>
        d.type === 'item-reported' && d.itemUuid === started.itemUuid,
    );
    expect(report.result).toBe('SUCCESS');
    const output = jobOutput('nodes', started.buildUuid);
    expect(output).toContain(`node=controller dir=${controllerDir} peer=${peerDir}\n`);
    expect(output).toContain('| written by controller\n');

    const inventory = JSON.parse(
      readFileSync(
        path.join(
          buildLogDir(config.logs.dir ?? path.join(config.dataDir, 'logs'), 'nodes', started.buildUuid),
          'inventory.json',
        ),
        'utf8',
      ),
    ) as Json;
    const local = {
      connection_type: 'local',
      connection: 'local',
      provider: expect.stringContaining('local-nodes'),
      host: 'localhost',
      interface_ip: '127.0.0.1',
      host_keys: [],
    };
    expect(inventory).toMatchObject({
      primary: 'controller',
      nodes: [
        {
          name: 'controller',
          aliases: [],
          label: 'small',
          groups: ['everyone'],
          primary: true,
          id: controllerId,
          directory: controllerDir,
          ...local,
        },
        {
          name: 'peer',
          aliases: ['peer-alias'],
          label: 'small',
          groups: ['peers', 'everyone'],
          primary: false,
          id: peerId,
          directory: peerDir,
          ...local,
        },
      ],
      groups: { peers: ['peer-alias'], everyone: ['controller', 'peer'] },
      ssh: null,
      all: {
        hosts: {
          controller: {
            ansible_connection: 'local',
            ansible_host: 'localhost',
            nodepool: { label: 'small' },
            sluice_node_dir: controllerDir,
          },
          // The job's host-vars and group-vars.
          peer: { ansible_connection: 'local', sluice_node_id: peerId, sluice_node_dir: peerDir, role: 'secondary' },
          'peer-alias': { sluice_node_id: peerId },
        },
        children: {
          peers: { hosts: { 'peer-alias': null }, vars: { service_port: 8080 } },
          everyone: { hosts: { controller: null, peer: null } },
        },
      },
    });

    // Both nodes are returned and deleted after the build.
    await app.roles?.engine.settle('nodes');
    await app.roles?.launcher.runOnce();
    expect(await rest('nodes', 'nodes')).toEqual([]);
    expect(existsSync(controllerDir) || existsSync(peerDir)).toBe(false);
  }, 120_000);

  it('keeps the built-in local node gateway for a tenant without providers', async () => {
    await pushChange(2);
    await enqueue('plain', 2);
    const report = await delta('plain', reported);
    expect(report.result).toBe('SUCCESS');
    const rows = await builds('plain');
    expect(rows.map((row) => [row.job_name, row.result])).toEqual([
      ['needs-gpu', 'SUCCESS'],
      ['on-node', 'SUCCESS'],
    ]);
    // No launcher node: the step ran in the executor's workspace.
    const output = jobOutput('plain', rows[1].uuid);
    expect(output).toContain(`workspace=${path.join(config.dataDir, 'executor', 'builds', rows[1].uuid)} node=\n`);
    expect(await rest('plain', 'nodes')).toEqual([]);
    expect(await rest('plain', 'nodeset-requests')).toEqual([]);
  }, 120_000);

  it('builds a missing zuul image with its image build job, uploads it and boots nodes from it', async () => {
    // The launcher saw that label `custom` needs image `built`, which has no artifact: its
    // image-build event put the image-config branch into the image-build pipeline.
    const imageBuild = await until(async () => {
      const rows = await builds('images', 'image-build');
      return rows.length > 0 && rows.every((row) => row.result !== null) ? rows : undefined;
    });
    expect(imageBuild.map((row) => [row.job_name, row.result])).toEqual([['build-image', 'SUCCESS']]);
    // The job got zuul.image_build_name and zuul.image_formats.
    expect(jobOutput('images', imageBuild[0].uuid)).toContain('building image built in format tar');

    // The launcher records the artifact and uploads it to the provider.
    await app.roles?.engine.settle('images');
    await app.roles?.launcher.runOnce();
    const images = await rest('images', 'images');
    expect(images).toEqual([
      expect.objectContaining({
        name: 'built',
        type: 'zuul',
        build_artifacts: [
          expect.objectContaining({
            format: 'tar',
            state: 'ready',
            validated: true,
            uploads: [expect.objectContaining({ state: 'ready', validated: true })],
          }),
        ],
      }),
    ]);

    await pushChange(3, 'org/app');
    await enqueue('images', 3, 'org/app');
    const report = await delta('images', reported);
    expect(report.result).toBe('SUCCESS');
    const [onImage] = await builds('images');
    expect([onImage.job_name, onImage.result]).toEqual(['on-image', 'SUCCESS']);
    expect(jobOutput('images', onImage.uuid)).toContain('built by build-image');
  }, 120_000);

  it('validates a ready unvalidated upload with its image validation job on a node booted from that upload', async () => {
    // The launcher requested builds of `good` and `bad`; their artifacts are not validated, so
    // each ready upload got an image-validate event, which ran only that image's validation job.
    const validation = await until(async () => {
      const rows = await builds('validate', 'image-validate');
      return rows.length === 2 && rows.every((row) => row.result !== null) ? rows : undefined;
    });
    expect(validation.map((row) => [row.job_name, row.result])).toEqual([
      ['validate-bad', 'FAILURE'],
      ['validate-good', 'SUCCESS'],
    ]);
    expect(jobOutput('validate', validation[1].uuid)).toContain('validating image good');
    expect(jobOutput('validate', validation[0].uuid)).toContain('validating image bad');
    await app.roles?.engine.settle('validate');

    // The events and the node requests named the upload; the validation node booted from it.
    const images = await rest('validate', 'images');
    const upload = (name: string): Json => {
      const image = images.find((candidate) => candidate.name === name) as {
        build_artifacts: Array<{ validated: boolean; uploads: Json[] }>;
      };
      expect(image.build_artifacts).toHaveLength(1);
      expect(image.build_artifacts[0].validated).toBe(false);
      expect(image.build_artifacts[0].uploads).toHaveLength(1);
      return image.build_artifacts[0].uploads[0];
    };
    const good = upload('good');
    const bad = upload('bad');
    expect(good).toMatchObject({ state: 'ready', validated: true });
    expect(bad).toMatchObject({ state: 'ready', validated: false });
    const events = await database
      .knex('engine_events')
      .where({ tenant: 'validate', event_type: 'image-validate' })
      .select('payload');
    expect(
      events.map((event: { payload: Json }) => [event.payload.imageNames, event.payload.imageUploadUuid]).sort(),
    ).toEqual([
      [['bad'], bad.uuid],
      [['good'], good.uuid],
    ]);
    const validationRequests = requestNodes.mock.calls
      .map(([request]) => request as LauncherNodeRequest)
      .filter((request) => request.pipeline === 'image-validate');
    expect(
      validationRequests.map((request) => [request.jobName, request.imageNames, request.imageUploadUuid]).sort(),
    ).toEqual([
      ['validate-bad', ['bad'], bad.uuid],
      ['validate-good', ['good'], good.uuid],
    ]);
  }, 120_000);
});
