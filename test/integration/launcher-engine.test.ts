/**
 * The real engine with the launcher as its node gateway: one job gets local nodes and runs, the
 * other needs an image no provider has and, after the provider's launch attempts, ends with
 * NODE_FAILURE; the returned nodes are deleted. Node requests carry the nodeset alternatives
 * (the launcher falls back to the next one), the project (relative priority) and the pipeline
 * precedence.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Launcher } from '../../src/launcher/launcher';
import type { EngineJob } from '../../src/model/pipeline-state';
import { EngineHarness, nextTenant } from '../engine/harness';
import { canonical, gitTrigger, job, makeLayout, pipeline } from '../engine/scripted-layout';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { launcherLayout } from '../helpers/launcher-layout';
import { launcherNodes } from '../engine/launcher-nodes';

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

  let tenant: string;

  /** Engine and launcher for one tenant whose projects run `jobs` in check. */
  async function setup(jobs: EngineJob[], projects = ['org/project']): Promise<void> {
    tenant = nextTenant();
    h = new EngineHarness(
      db,
      makeLayout({
        tenant,
        pipelines: [pipeline('check', 'independent', { triggers: [gitTrigger(['patchset-created'])] })],
        projects: projects.map((name) => ({ name })),
        jobs: Object.fromEntries(projects.map((name) => [name, { check: jobs }])),
      }),
    );
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-launcher-engine-'));
    launcher = launcherNodes(
      h,
      db.knex,
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
        providers: [
          {
            name: 'local-main',
            section: 'local-section',
            config: { labels: ['small', 'custom'], images: ['debian', 'built'], flavors: ['normal'] },
          },
        ],
      }),
      root,
    );
    await h.start();
  }

  /** Launcher passes and engine passes until both are quiet. */
  async function run(passes = 4): Promise<void> {
    await h.settle();
    for (let pass = 0; pass < passes; pass += 1) {
      await launcher.runOnce();
      await h.settle();
    }
  }

  afterEach(async () => {
    await h.stop();
    await launcher.stop();
    rmSync(root, { recursive: true, force: true });
    expect(h.errors).toEqual([]);
  });

  it('runs a job on launcher nodes and fails the job whose nodes cannot be launched with NODE_FAILURE', async () => {
    await setup([
      job('lint', { nodeset: { name: '', labels: ['small'] } }),
      job('unit', { nodeset: { name: 'custom-set', labels: ['custom'] } }),
    ]);
    h.changes.add('org/project', 1);
    await h.patchsetCreated('org/project', 1);
    await run();
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

    // The returned nodes are deleted, the failed request too (the engine deletes it), and nothing is left over.
    await launcher.runOnce();
    expect(
      await launcher.context.repos.nodes.listByStates(['requested', 'building', 'ready', 'in-use', 'used', 'failed']),
    ).toEqual([]);
    expect(await launcher.context.repos.requests.listOpen()).toEqual([]);
    expect(await db.knex('nodeset_requests').where({ tenant })).toEqual([]);
  });

  it('falls back to the next nodeset alternative when the first cannot be launched', async () => {
    await setup([job('unit', { nodeset: { name: 'any', labels: ['custom'], alternatives: [['custom'], ['small']] } })]);
    h.changes.add('org/project', 1);
    await h.patchsetCreated('org/project', 1);
    await run(6);
    const running = [...h.executor.running.values()];
    expect(running.map((build) => build.job.name)).toEqual(['unit']);
    expect(running[0].nodes).toEqual([expect.objectContaining({ label: 'small', connectionType: 'local' })]);
    const [request] = await db.knex('nodeset_requests').where({ tenant });
    expect(request).toMatchObject({
      alternatives: [['custom'], ['small']],
      alternative_index: 1,
      labels: ['small'],
      state: 'fulfilled',
    });
  });

  it('sends the project and the pipeline precedence; a project with more requests queued gets a lower relative priority', async () => {
    await setup([job('lint', { nodeset: { name: '', labels: ['small'] } })], ['org/project', 'org/other']);
    for (const [project, number] of [
      ['org/project', 1],
      ['org/project', 2],
      ['org/project', 3],
      ['org/other', 4],
    ] as const) {
      h.changes.add(project, number);
      await h.patchsetCreated(project, number);
      await h.settle();
    }
    const requests: Array<{ project: string; priority: number; relative_priority: number; alternatives: string[][] }> =
      await db.knex('nodeset_requests').where({ tenant }).orderBy('id');
    expect(requests.map((r) => [r.project, r.priority, r.relative_priority, r.alternatives])).toEqual([
      [canonical('org/project'), 200, 0, [['small']]],
      [canonical('org/project'), 200, 1, [['small']]],
      [canonical('org/project'), 200, 2, [['small']]],
      [canonical('org/other'), 200, 0, [['small']]],
    ]);
  });
});
