/**
 * The real engine with the launcher as its node gateway: one job gets local nodes and runs, the
 * other needs an image no provider has and, after the provider's launch attempts, ends with
 * NODE_FAILURE; the returned nodes are deleted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServiceConfig } from '../../src/config/service';
import type { NodeGateway } from '../../src/engine/interfaces';
import { createLauncher, type Launcher } from '../../src/launcher/launcher';
import { EngineHarness, nextTenant } from '../engine/harness';
import { gitTrigger, job, makeLayout, pipeline } from '../engine/scripted';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { launcherLayout, TestLayouts } from '../helpers/launcher-layout';

describe('engine with the launcher', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let launcher: Launcher;
  let root: string;

  beforeAll(async () => {
    db = await createTestDatabase();
  }, 120_000);

  afterAll(async () => {
    await db.destroy();
  });

  beforeEach(async () => {
    const tenant = nextTenant();
    h = new EngineHarness(
      db,
      makeLayout({
        tenant,
        pipelines: [pipeline('check', 'independent', { triggers: [gitTrigger(['patchset-created'])] })],
        projects: [{ name: 'org/project' }],
        jobs: {
          'org/project': {
            check: [job('lint', { nodeset: { name: '', labels: ['small'] } }), job('unit', { nodeset: { name: 'custom-set', labels: ['custom'] } })],
          },
        },
      }),
    );
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-launcher-engine-'));
    const layouts = new TestLayouts(
      launcherLayout({
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
        sections: [{ name: 'local-section', connection: 'local', config: { 'launch-attempts': 2 } }],
        providers: [{ name: 'local-main', section: 'local-section', config: { labels: ['small', 'custom'], images: ['debian', 'built'], flavors: ['normal'] } }],
      }),
    );
    const config: Pick<ServiceConfig, 'connections' | 'dataDir'> = { dataDir: root, connections: { local: { driver: 'local' } } };
    launcher = createLauncher({ config, knex: db.knex, layouts, now: h.clock.now.bind(h.clock) });
    // The engine's node gateway is the launcher's.
    const gateway: NodeGateway = launcher.gateway;
    Object.assign(h.nodes, {
      requestNodes: gateway.requestNodes.bind(gateway),
      cancelRequest: gateway.cancelRequest.bind(gateway),
      returnNodes: gateway.returnNodes.bind(gateway),
      holdNodes: gateway.holdNodes.bind(gateway),
    });
    await h.start();
  });

  afterEach(async () => {
    await h.stop();
    await launcher.stop();
    rmSync(root, { recursive: true, force: true });
    expect(h.errors).toEqual([]);
  });

  it('runs a job on launcher nodes and fails the job whose nodes cannot be launched with NODE_FAILURE', async () => {
    h.changes.add('org/project', 1);
    await h.patchsetCreated('org/project', 1);
    await h.settle();
    for (let pass = 0; pass < 4; pass += 1) {
      await launcher.runOnce();
      await h.settle();
    }
    const running = [...h.executor.running.values()];
    expect(running.map((build) => build.job.name)).toEqual(['lint']);
    expect(running[0].nodes).toEqual([expect.objectContaining({ label: 'small', connectionType: 'local' })]);

    await h.executor.finish('lint', 1, { result: 'SUCCESS' });
    await h.settle();
    expect(h.reports()).toEqual(['1,1 check FAILURE']);
    const builds = await h.builds();
    expect(builds.map((build) => [build.jobName, build.result])).toEqual(
      expect.arrayContaining([
        ['lint', 'SUCCESS'],
        ['unit', 'NODE_FAILURE'],
      ]),
    );
    expect(builds.find((build) => build.jobName === 'unit')?.errorDetail).toMatch(/^Node\(set\) request \S+ failed$/);

    // The returned nodes are deleted and nothing is left over.
    await launcher.runOnce();
    expect(await launcher.context.repos.nodes.listByStates(['requested', 'building', 'ready', 'in-use', 'used', 'failed'])).toEqual([]);
  });
});
