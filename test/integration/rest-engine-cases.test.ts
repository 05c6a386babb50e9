/**
 * docs/rest.md#current-shape-cases cases about the gate's change queues, over REST on a live engine: a gate whose
 * shared queue is per branch (`queue: {name: integrated, per-branch: true}`) reports the branch of
 * every change queue (#14), and once every change has completed the gate lists no queue at all
 * (#15: only non-empty queues, docs/rest.md#status-document). The engine runs with the scripted executor: builds stay
 * running until the test finishes them, and the test waits for the scheduler to go idle.
 */
import { EngineHarness, nextTenant } from '../engine/harness';
import { job, makeLayout, pipeline } from '../engine/scripted-layout';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { startLiveServer, type LiveServer } from '../helpers/live';

interface StatusRef {
  id: string;
  project: string;
}

interface StatusItem {
  active: boolean;
  refs: StatusRef[];
  jobs: Array<{ name: string }>;
}

interface ChangeQueue {
  name: string;
  window: number;
  branch: string | null;
  heads: StatusItem[][];
}

interface StatusDocument {
  pipelines: Array<{ name: string; change_queues: ChangeQueue[] }>;
}

const GATE_JOBS = [
  job('project-merge'),
  job('project-test1', { dependencies: [{ name: 'project-merge', soft: false }] }),
  job('project-test2', { dependencies: [{ name: 'project-merge', soft: false }] }),
];

describe('REST status cases over the engine (per-branch gate queue)', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let server: LiveServer;

  beforeAll(async () => {
    db = await createTestDatabase();
    h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
        projects: [
          { name: 'org/project', queue: 'integrated', perBranch: true },
          { name: 'org/project1', queue: 'integrated', perBranch: true },
        ],
        jobs: { 'org/project': { gate: GATE_JOBS }, 'org/project1': { gate: GATE_JOBS } },
      }),
    );
    await h.start();
    server = await startLiveServer(db, { harness: h });
    // "add_base_changes" of the reference fixture: 1,1 on org/project and 2,1 on org/project1, both on master.
    h.changes.add('org/project', 1);
    await h.enqueue('gate', 'org/project', '1,1');
    h.changes.add('org/project1', 2);
    await h.enqueue('gate', 'org/project1', '2,1');
  }, 120_000);

  afterAll(async () => {
    await server.stop();
    await h.stop();
    await db.destroy();
    expect(h.errors).toEqual([]);
  });

  async function gateQueues(): Promise<ChangeQueue[]> {
    const res = await fetch(`${server.url}/api/tenant/${h.tenant}/status`);
    expect(res.status).toBe(200);
    const status = (await res.json()) as StatusDocument;
    const gate = status.pipelines.find((entry) => entry.name === 'gate');
    if (!gate) {
      throw new Error('no gate pipeline in the status document');
    }
    return gate.change_queues;
  }

  it('per-branch queue: every gate queue has branch "master" (case 14)', async () => {
    const queues = await gateQueues();
    expect(queues.length).toBeGreaterThan(0);
    for (const queue of queues) {
      expect(queue.branch).toBe('master');
    }
    // Both projects share the one per-branch queue of master, in enqueue order.
    expect(
      queues.map((queue) => [queue.name, queue.window, queue.heads.flat().map((item) => item.refs[0]?.id)]),
    ).toEqual([['integrated', 20, ['1,1', '2,1']]]);
  });

  it('after every change completed the gate lists no queue (case 15)', async () => {
    // project-merge first, then the two jobs that depend on it; each round waits for the scheduler to settle.
    while (h.executor.running.size > 0) {
      await h.executor.finishAll({ result: 'SUCCESS' });
      await h.settle();
    }
    expect(h.reports()).toEqual([`1,1 gate SUCCESS`, `2,1 gate SUCCESS`]);
    expect(await gateQueues()).toEqual([]);
  });
});
