/**
 * Node requests follow the window (docs/gating.md#windows-and-nodes): the real engine and the
 * launcher with a local provider whose quota (`resource-limits: {instances: 1}`) is smaller than
 * the gate's window. A failure shrinks the window to 1 while an item behind the new head has a
 * node request open; that item must give it up, or the launcher fulfils it (it is older than the
 * head's next request) and the item, outside the window, holds the only node while the head waits
 * for it forever.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Launcher } from '../../src/launcher/launcher';
import { EngineHarness, nextTenant } from '../engine/harness';
import { job, makeLayout, pipeline } from '../engine/scripted-layout';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { launcherLayout } from '../helpers/launcher-layout';
import { launcherNodes } from '../engine/launcher-nodes';

jest.setTimeout(120_000);

describe('node requests follow the window under a node quota', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let launcher: Launcher;
  let root: string;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.destroy();
  });

  afterEach(async () => {
    await h.stop();
    await launcher.stop();
    rmSync(root, { recursive: true, force: true });
    expect(h.errors).toEqual([]);
  });

  /** Node cancels dropped, as when the leader that made them died right after its commit. */
  let dropCancels = false;
  const dropped: string[] = [];

  async function setup(): Promise<void> {
    const tenant = nextTenant();
    const node = { name: 'one-small', labels: ['small'] };
    h = new EngineHarness(
      db,
      makeLayout({
        tenant,
        pipelines: [
          pipeline('gate', 'dependent', {
            triggers: [],
            submit: true,
            window: {
              window: 4,
              floor: 1,
              ceiling: null,
              increaseType: 'linear',
              increaseFactor: 1,
              decreaseType: 'exponential',
              decreaseFactor: 4,
            },
          }),
        ],
        projects: [{ name: 'org/project' }],
        jobs: {
          'org/project': {
            gate: [
              job('build', { nodeset: node }),
              job('test', { nodeset: node, dependencies: [{ name: 'build', soft: false }] }),
            ],
          },
        },
      }),
    );
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-launcher-window-'));
    // Node cancels may be dropped, as when the leader that made them died right after its commit.
    launcher = launcherNodes(
      h,
      db.knex,
      launcherLayout({
        tenant,
        images: [{ name: 'debian', type: 'cloud' }],
        flavors: ['normal'],
        labels: [{ name: 'small', image: 'debian', flavor: 'normal' }],
        sections: [{ name: 'local-section', connection: 'local' }],
        providers: [
          {
            name: 'local-main',
            section: 'local-section',
            config: {
              labels: ['small'],
              images: ['debian'],
              flavors: ['normal'],
              'resource-limits': { instances: 1 },
            },
          },
        ],
      }),
      root,
      (gateway, tenantName, requestId) => {
        if (dropCancels) {
          dropped.push(requestId);
          return Promise.resolve();
        }
        return gateway.cancelRequest(tenantName, requestId);
      },
    );
    await h.start();
  }

  /** Launcher and engine passes until both are quiet (the clock moves on, so requests have an age). */
  async function run(passes = 5): Promise<void> {
    await h.settle();
    for (let pass = 0; pass < passes; pass += 1) {
      h.clock.advance(1000);
      await launcher.runOnce();
      await h.settle();
    }
  }

  /** Which build runs now, as `<job> <change>`. */
  function running(): string[] {
    return [...h.executor.running.values()].map((params) => `${params.job.name} ${params.changes[0].number}`).sort();
  }

  async function finish(jobName: string, change: number, result: 'SUCCESS' | 'FAILURE'): Promise<void> {
    expect({ running: running(), finishing: `${jobName} ${change}` }).toEqual({
      running: [`${jobName} ${change}`],
      finishing: `${jobName} ${change}`,
    });
    await h.executor.finish(jobName, change, { result });
    await run();
  }

  it('gives up the requests of items leaving the window, so the head gets the node', async () => {
    await setup();
    for (const number of [1, 2, 3, 4]) {
      h.changes.add('org/project', number);
      await h.enqueue('gate', 'org/project', `${number},1`);
    }
    await run();
    // One node: the head's build runs, the other items' builds wait for it.
    await finish('build', 1, 'SUCCESS');
    await finish('build', 2, 'FAILURE');
    // 3 and 4 were reset behind 1 (their new requests are younger than 1's test).
    await finish('test', 1, 'SUCCESS');
    // 1 merged, 2 reported FAILURE: the window is 1, so 3 is the only active item.
    const queue = (await h.engine.status(h.tenant))?.pipelines[0].changeQueues[0];
    expect(queue?.window).toBe(1);
    expect(queue?.heads[0].map((item) => [item.refs[0].id, item.active])).toEqual([
      ['3,1', true],
      ['4,1', false],
    ]);
    // The only open request is the head's build: 4 gave its request up when it left the window.
    const open: Array<{ job_name: string }> = await db
      .knex('nodeset_requests')
      .where({ tenant: h.tenant })
      .select('job_name');
    expect(open.map((row) => row.job_name)).toEqual(['build']);
    await finish('build', 3, 'SUCCESS');
    // The head's test gets the node: 4, outside the window, holds no request.
    await finish('test', 3, 'SUCCESS');
    await finish('build', 4, 'SUCCESS');
    await finish('test', 4, 'SUCCESS');
    expect(h.reports()).toEqual(['1,1 gate SUCCESS', '2,1 gate FAILURE', '3,1 gate SUCCESS', '4,1 gate SUCCESS']);
    expect(h.merger.mergedOrder).toEqual([1, 3, 4]);
    await run();
    expect(await db.knex('nodeset_requests').where({ tenant: h.tenant })).toEqual([]);
  });

  it('cancels a fulfilled request no job waits for (its cancel was lost with a leader), so the head gets the node', async () => {
    await setup();
    for (const number of [1, 2]) {
      h.changes.add('org/project', number);
      await h.enqueue('gate', 'org/project', `${number},1`);
    }
    await run();
    expect(running()).toEqual(['build 1']);
    // 2 leaves; the cancel of its open request never reaches the launcher.
    dropCancels = true;
    expect(
      await h.engine.dequeue(h.tenant, { pipeline: 'gate', project: 'org/project', change: '2,1', by: 'admin' }),
    ).toMatchObject({ ok: true });
    await h.settle();
    dropCancels = false;
    expect(dropped).toHaveLength(1);
    // The launcher fulfils the forgotten request with the node 1's build gave back; the engine
    // cancels it, and 1's test gets the node.
    await finish('build', 1, 'SUCCESS');
    await finish('test', 1, 'SUCCESS');
    expect(h.reports()).toEqual(['1,1 gate SUCCESS']);
    await run();
    expect(await db.knex('nodeset_requests').where({ tenant: h.tenant })).toEqual([]);
  });
});
