/**
 * docs/live.md#status-computation: REST status reads share one status computation and one
 * serialised body per status version and shape, and never miss a change committed before the
 * request.
 */
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { startLiveServer, type LiveServer } from '../helpers/live';
import { EngineHarness, nextTenant } from '../engine/harness';
import { job, makeLayout, pipeline } from '../engine/scripted-layout';

describe('REST status, shared', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let server: LiveServer;
  let computations = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
        projects: [{ name: 'org/project', queue: 'integrated' }],
        jobs: { 'org/project': { gate: [job('unit')] } },
      }),
    );
    await h.start();
    const compute = h.engine.statusSnapshot.bind(h.engine);
    h.engine.statusSnapshot = (tenant) => {
      computations += 1;
      return compute(tenant);
    };
    // A clock that stands still: a shared snapshot never ages out while the concurrent readers of
    // a loaded machine are served, so each computation counted is one the status version forced.
    const frozen = new Date();
    server = await startLiveServer(db, { harness: h, now: () => frozen });
  });

  afterAll(async () => {
    await server.stop();
    await h.stop();
    await db.destroy();
  });

  const get = async (shape = 'current'): Promise<string> => {
    const response = await fetch(`${server.url}/api/tenant/${h.tenant}/status`, {
      headers: { 'X-Sluice-Api-Shape': shape },
    });
    expect(response.status).toBe(200);
    return response.text();
  };

  it('computes the status once for concurrent readers of both shapes, with one body per shape', async () => {
    h.changes.add('org/project', 1);
    await h.enqueue('gate', 'org/project', '1,1');
    computations = 0;
    const bodies = await Promise.all([...Array.from({ length: 10 }, () => get()), get('earlier'), get('earlier')]);
    expect(computations).toBe(1);
    expect(new Set(bodies.slice(0, 10)).size).toBe(1);
    expect(bodies[10]).toBe(bodies[11]);
    expect(bodies[10]).not.toBe(bodies[0]);
    expect(JSON.parse(bodies[0])).toMatchObject({ pipelines: [{ name: 'gate' }] });
  });

  it('answers a change committed before the request, at once', async () => {
    const before = await get();
    expect(before).toContain('"1,1"');
    h.changes.add('org/project', 2);
    await h.enqueue('gate', 'org/project', '2,1');
    const after = await get();
    expect(after).toContain('"2,1"');
  });
});
