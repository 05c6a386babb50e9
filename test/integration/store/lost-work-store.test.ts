/**
 * Reclaiming lost work in the store (docs/operations.md#lost-work): a dead executor's running
 * build is ended ABORTED with its result event and its launcher nodes are returned, once, even
 * with two reclaimers racing; a heartbeat that arrives after the judgement cancels the reclaim;
 * paused builds are left unless asked for; uploads of a dead launcher are queued again; nodes left in use by
 * ended builds are returned; and the reclaimer's sweep judges by the injected clock.
 */
import { buildParams } from '../../helpers/build-params';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';
import { BuildRequestRepository } from '../../../src/store/repositories/build-requests';
import { ComponentRepository } from '../../../src/store/repositories/components';
import { LostWorkRepository, type ReclaimJudgement } from '../../../src/store/repositories/lost-work';
import { LostWorkReclaimer } from '../../../src/server/lost-work-reclaimer';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const silent = { info: () => undefined, warn: () => undefined };

describe.each(backends())('lost work on %s', (backend) => {
  let db: TestDatabase;
  let requests: BuildRequestRepository;
  let components: ComponentRepository;
  let lost: LostWorkRepository;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
    requests = new BuildRequestRepository(db.knex);
    components = new ComponentRepository(db.knex);
    lost = new LostWorkRepository(db.knex);
  });

  afterAll(() => db.destroy());

  async function registerExecutor(id: string, heartbeat: Date, hostname = 'elsewhere'): Promise<void> {
    await components.register({
      id,
      kind: 'executor',
      hostname,
      pid: 4242,
      state: 'running',
      version: 'test',
      started: heartbeat,
      heartbeat,
    });
  }

  /** A build request claimed by `worker`, holding a launcher node in use with its nodeset request. */
  async function claimedWithNode(worker: string, uuid: string, node: string): Promise<void> {
    await db.knex('nodeset_requests').insert({
      uuid: `req-${node}`,
      tenant: 'example',
      state: 'fulfilled',
      request_time: T0,
      state_time: T0,
    });
    await db.knex('nodes').insert({
      uuid: node,
      tenant: 'example',
      label: 'small',
      state: 'in-use',
      state_time: T0,
      request_uuid: `req-${node}`,
      lock_holder: worker,
    });
    await requests.create(
      buildParams({
        params: {
          buildUuid: uuid,
          nodes: [
            {
              id: node,
              label: 'small',
              connectionType: 'local',
              host: null,
              port: null,
              username: null,
              path: '/tmp',
              hostKeys: [],
            },
          ],
        },
      }),
      { now: T0 },
    );
    await db.knex('build_requests').where({ build_uuid: uuid }).update({ state: 'running', worker, started: T0 });
  }

  const judged = (heartbeat: Date | null, extra: Partial<ReclaimJudgement> = {}): ReclaimJudgement => ({
    heartbeat,
    unchangedSince: at(0),
    paused: false,
    now: at(120),
    detail: 'Build request lost: executor dead-1 stopped heartbeating',
    ...extra,
  });

  it('ends a dead executor build ABORTED once, with its event, and returns its node, even when two reclaim at once', async () => {
    await registerExecutor('dead-1', T0);
    await claimedWithNode('dead-1', 'b1000000000000000000000000000001', 'node-1');
    const [first, second] = await Promise.all([lost.reclaim('dead-1', judged(T0)), lost.reclaim('dead-1', judged(T0))]);
    expect([...first, ...second]).toEqual([
      { buildUuid: 'b1000000000000000000000000000001', tenant: 'example', state: 'running', nodesReleased: 1 },
    ]);
    expect(await requests.get('b1000000000000000000000000000001')).toMatchObject({
      state: 'completed',
      result: 'ABORTED',
      completed: at(120),
    });
    const events = (await requests.resultEvents('example')).filter(
      (event) => event.payload.buildUuid === 'b1000000000000000000000000000001',
    );
    expect(events).toEqual([
      expect.objectContaining({
        eventType: 'build-completed',
        payload: expect.objectContaining({
          result: 'ABORTED',
          errorDetail: 'Build request lost: executor dead-1 stopped heartbeating',
          startTime: T0.toISOString(),
          endTime: at(120).toISOString(),
          worker: 'dead-1',
          jobName: 'unit',
        }),
      }),
    ]);
    expect(await db.knex('nodes').where({ uuid: 'node-1' }).first('state', 'lock_holder', 'request_uuid')).toEqual({
      state: 'used',
      lock_holder: null,
      request_uuid: null,
    });
    expect(await db.knex('nodeset_requests').where({ uuid: 'req-node-1' }).first()).toBeUndefined();
    // Nothing left to do: a third reclaim ends nothing.
    expect(await lost.reclaim('dead-1', judged(T0))).toEqual([]);
  });

  it('does not reclaim when a heartbeat arrived after the judgement, and leaves paused builds unless asked', async () => {
    await registerExecutor('slow-2', T0);
    await claimedWithNode('slow-2', 'b2000000000000000000000000000002', 'node-2');
    await components.heartbeat('slow-2', at(100));
    expect(await lost.reclaim('slow-2', judged(T0))).toEqual([]);
    expect((await requests.get('b2000000000000000000000000000002'))?.state).toBe('running');

    await db
      .knex('build_requests')
      .where({ build_uuid: 'b2000000000000000000000000000002' })
      .update({ state: 'paused' });
    expect(await lost.reclaim('slow-2', judged(at(100)))).toEqual([]);
    expect(await lost.reclaim('slow-2', judged(at(100), { paused: true }))).toEqual([
      expect.objectContaining({ buildUuid: 'b2000000000000000000000000000002', state: 'paused', nodesReleased: 1 }),
    ]);
  });

  it('puts the uploads of a dead launcher back to pending, and leaves those of a live one', async () => {
    const launcher = (id: string, heartbeat: Date) =>
      components.register({
        id,
        kind: 'launcher',
        hostname: 'elsewhere',
        pid: 4242,
        state: 'running',
        version: 'test',
        started: T0,
        heartbeat,
      });
    await launcher('launcher-dead', at(0));
    await launcher('launcher-live', at(250));
    await db.knex('image_build_artifacts').insert({
      uuid: 'artifact-1',
      tenant: 'example',
      canonical_name: 'example/image',
      format: 'raw',
      state_time: T0,
      timestamp: T0,
    });
    for (const [uuid, holder] of [
      ['upload-dead', 'launcher-dead'],
      ['upload-live', 'launcher-live'],
    ]) {
      await db.knex('image_uploads').insert({
        uuid,
        artifact_uuid: 'artifact-1',
        canonical_name: 'example/image',
        endpoint_name: 'local/endpoint',
        state: 'uploading',
        state_time: T0,
        timestamp: T0,
        lock_holder: holder,
      });
    }
    const reclaimer = new LostWorkReclaimer({
      knex: db.knex,
      now: () => at(260),
      expiryMs: 90_000,
      intervalMs: 30_000,
      logger: silent,
      own: () => [],
    });
    await reclaimer.sweep();
    const uploads: Array<{ uuid: string; state: string; lock_holder: string | null }> = await db
      .knex('image_uploads')
      .orderBy('uuid')
      .select('uuid', 'state', 'lock_holder');
    expect(uploads).toEqual([
      { uuid: 'upload-dead', state: 'pending', lock_holder: null },
      { uuid: 'upload-live', state: 'uploading', lock_holder: 'launcher-live' },
    ]);
  });

  it('returns nodes left in use by an ended build once the expiry passed, and keeps those a build still uses', async () => {
    await registerExecutor('live-4', at(0));
    await claimedWithNode('live-4', 'b4000000000000000000000000000006', 'node-6');
    await claimedWithNode('live-4', 'b4000000000000000000000000000007', 'node-7');
    // Build 6 ended at 10 s; whoever should have returned its node died before it did.
    await db
      .knex('build_requests')
      .where({ build_uuid: 'b4000000000000000000000000000006' })
      .update({ state: 'completed', result: 'SUCCESS', completed: at(10) });
    expect(await lost.releaseStrandedNodes(at(5), at(60))).toEqual([]);
    expect(await lost.releaseStrandedNodes(at(30), at(120))).toEqual(['node-6']);
    expect(await db.knex('nodes').where({ uuid: 'node-6' }).first('state')).toEqual({ state: 'used' });
    expect(await db.knex('nodeset_requests').where({ uuid: 'req-node-6' }).first()).toBeUndefined();
    // Build 7 still runs on its node.
    expect(await db.knex('nodes').where({ uuid: 'node-7' }).first('state')).toEqual({ state: 'in-use' });
    await db
      .knex('build_requests')
      .where({ build_uuid: 'b4000000000000000000000000000007' })
      .update({ state: 'completed', completed: at(10) });
  });

  it('sweeps by the injected clock: alive within the expiry, reclaimed after it, paused ones kept for a live executor of the host', async () => {
    let now = at(0);
    await registerExecutor('dead-3', at(0), 'host-a');
    await registerExecutor('live-3', at(0), 'host-a');
    await claimedWithNode('dead-3', 'b3000000000000000000000000000003', 'node-3');
    await claimedWithNode('dead-3', 'b3000000000000000000000000000004', 'node-4');
    await db
      .knex('build_requests')
      .where({ build_uuid: 'b3000000000000000000000000000004' })
      .update({ state: 'paused' });
    // A request of a worker that never registered: lost once it stayed unchanged for the expiry.
    await claimedWithNode('unregistered', 'b3000000000000000000000000000005', 'node-5');
    const reclaimed: string[] = [];
    const reclaimer = new LostWorkReclaimer({
      knex: db.knex,
      now: () => now,
      expiryMs: 90_000,
      intervalMs: 30_000,
      logger: silent,
      own: () => [],
      onReclaimed: (builds) => reclaimed.push(...builds.map((build) => build.buildUuid)),
    });
    now = at(60);
    await components.heartbeat('live-3', now);
    expect(await reclaimer.sweep()).toEqual([]);
    now = at(100);
    await components.heartbeat('live-3', now);
    expect((await reclaimer.sweep()).map((build) => build.buildUuid).sort()).toEqual([
      'b3000000000000000000000000000003',
      'b3000000000000000000000000000005',
    ]);
    expect(reclaimed.sort()).toEqual(['b3000000000000000000000000000003', 'b3000000000000000000000000000005']);
    // The paused build waits for the live executor of its host; once that one is gone too, it ends.
    expect((await requests.get('b3000000000000000000000000000004'))?.state).toBe('paused');
    now = at(300);
    expect((await reclaimer.sweep()).map((build) => build.buildUuid)).toEqual(['b3000000000000000000000000000004']);
    expect(await reclaimer.sweep()).toEqual([]);
    // Dead components that hold nothing any more are removed.
    expect(await components.getMany(['dead-3', 'live-3'])).toEqual(new Map());
  });
});
