/**
 * Status reads keep the parsed pipeline state while the stored state does not change
 * (docs/live.md#status-computation): repeated reads parse the stored items once; a pass that
 * writes (here or in another process, an engine of its own on the same database) makes the
 * next read load them again, parsing only the items whose rows changed; pending-event counters
 * are read every time.
 */
import { Engine } from '../../../src/engine/engine';
import { InProcessEventBus } from '../../../src/engine/event-bus';
import type { TenantStatus } from '../../../src/engine/status';
import { PassRunner } from '../../../src/engine/scheduler/pass';
import { EngineStateRepository } from '../../../src/store/repositories/engine-state';
import { storedItems } from '../../../src/store/repositories/engine-state-json';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';
import { eventually } from '../../helpers/pg-faults';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { canonical, job, makeLayout, pipeline } from '../../engine/scripted-layout';

function changesIn(status: TenantStatus | null): string[] {
  return (status?.pipelines ?? [])
    .flatMap((p) => p.changeQueues.flatMap((q) => q.items))
    .map((item) => item.refs[0].id)
    .sort();
}

describe.each(backends())('engine: status reads over cached parsed state (%s)', (backend) => {
  let db: TestDatabase;
  let h: EngineHarness;
  /** Another process's engine: no scheduler, status from the store only. */
  let reader: Engine;
  let loads: jest.SpyInstance;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
    h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [pipeline('check', 'independent', { triggers: [] })],
        projects: [{ name: 'org/project' }],
        jobs: { 'org/project': { check: [job('unit')] } },
      }),
    );
    await h.start();
    // Builds stay running: items stay in the queue.
    h.executor.auto = null;
    reader = new Engine({
      database: db,
      layouts: (tenant) => (tenant === h.tenant ? h.layout : null),
      gateways: { changes: h.changes, merger: h.merger, executor: h.executor, nodes: h.nodes },
      bus: new InProcessEventBus(),
      clock: h.clock,
    });
    loads = jest.spyOn(EngineStateRepository.prototype, 'loadPipelines');
  });

  afterAll(async () => {
    loads.mockRestore();
    await h.stop();
    await db.destroy();
    expect(h.errors).toEqual([]);
  });

  it('parses the stored state once while no pass writes, and again after one', async () => {
    h.changes.add('org/project', 1);
    await h.enqueue('check', 'org/project', '1,1');
    loads.mockClear();
    expect(changesIn(await reader.status(h.tenant))).toEqual(['1,1']);
    expect(changesIn(await reader.status(h.tenant))).toEqual(['1,1']);
    expect(changesIn(await h.engine.status(h.tenant))).toEqual(['1,1']);
    // One load per engine (each keeps its own), none for the repeated read.
    expect(loads).toHaveBeenCalledTimes(2);

    // A pass in the scheduler's engine writes: the other engine's next read sees it.
    h.changes.add('org/project', 2);
    await h.enqueue('check', 'org/project', '2,1');
    loads.mockClear();
    expect(changesIn(await reader.status(h.tenant))).toEqual(['1,1', '2,1']);
    expect(loads).toHaveBeenCalledTimes(1);
  });

  it('parses again only the items a pass wrote, and reads the same status as a fresh reader', async () => {
    for (const number of [3, 4, 5, 6]) {
      h.changes.add('org/project', number);
      await h.enqueue('check', 'org/project', `${number},1`);
    }
    expect(changesIn(await reader.status(h.tenant))).toEqual(['1,1', '2,1', '3,1', '4,1', '5,1', '6,1']);
    const parses = jest.spyOn(storedItems, 'read');
    try {
      // A new item in a queue of its own: the other items' rows stay as they were.
      h.changes.add('org/project', 7);
      await h.enqueue('check', 'org/project', '7,1');
      const incremental = await reader.status(h.tenant);
      expect(parses).toHaveBeenCalledTimes(1);
      // The dequeue of an item: nothing parsed, the item is gone from what is kept.
      const dequeued = await h.engine.dequeue(h.tenant, { pipeline: 'check', project: 'org/project', change: '3,1' });
      expect(dequeued.ok).toBe(true);
      await h.settle();
      parses.mockClear(); // the dequeue operation reads the state itself
      expect(changesIn(await reader.status(h.tenant))).toEqual(['1,1', '2,1', '4,1', '5,1', '6,1', '7,1']);
      expect(parses).toHaveBeenCalledTimes(0);
      // What was kept and reused is what a reader with nothing kept reads.
      const fresh = new Engine({
        database: db,
        layouts: (tenant) => (tenant === h.tenant ? h.layout : null),
        gateways: { changes: h.changes, merger: h.merger, executor: h.executor, nodes: h.nodes },
        bus: new InProcessEventBus(),
        clock: h.clock,
      });
      expect(JSON.stringify(await reader.status(h.tenant))).toBe(JSON.stringify(await fresh.status(h.tenant)));
      expect(changesIn(incremental)).toEqual(['1,1', '2,1', '3,1', '4,1', '5,1', '6,1', '7,1']);
    } finally {
      parses.mockRestore();
    }
  });

  it('keeps the stored state’s version through passes that change nothing', async () => {
    h.changes.add('org/project', 3);
    await h.enqueue('check', 'org/project', '3,1');
    const version = async () => (await new EngineStateRepository(db.knex).loadTenantVersion(h.tenant)).version;
    const before = await version();
    expect(changesIn(await reader.status(h.tenant))).toContain('3,1');
    const runs = jest.spyOn(PassRunner.prototype, 'run');
    try {
      // The harness polls every 50 ms: each poll runs a pass that finds nothing to do.
      await eventually('three passes', () => runs.mock.calls.length >= 3, 15_000, 20);
      await Promise.all(runs.mock.results.map((result) => result.value as Promise<boolean>));
    } finally {
      runs.mockRestore();
    }
    expect(await version()).toBe(before);
    // The reader keeps what it parsed before those passes.
    loads.mockClear();
    expect(changesIn(await reader.status(h.tenant))).toContain('3,1');
    expect(loads).toHaveBeenCalledTimes(0);
  });

  it('counts events that wait for a pass on every read', async () => {
    const before = (await reader.status(h.tenant))?.triggerEventQueue.length ?? 0;
    await h.engine.stop();
    await db.knex('engine_events').insert({
      tenant: h.tenant,
      category: 'trigger',
      event_type: 'patchset-created',
      payload: { type: 'patchset-created', project: canonical('org/project'), change: 9, patchset: '1' },
      created: h.clock.now(),
    });
    expect((await reader.status(h.tenant))?.triggerEventQueue.length).toBe(before + 1);
  });
});
