import { BuildRequestRepository } from '../../src/store/repositories/build-requests';
import { buildParams } from '../helpers/build-params';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/database';

describe.each(backends())('build requests on %s', (backend) => {
  let db: TestDatabase;
  let repository: BuildRequestRepository;

  // One database per backend: each test claims everything it queued.
  beforeAll(async () => {
    db = await createTestDatabase({ backend });
    repository = new BuildRequestRepository(db.knex);
  });

  afterAll(() => db.destroy());

  it('serves requests by precedence, then age, and gives each to exactly one concurrent claimer', async () => {
    const uuids = ['c0000001', 'c0000002', 'c0000003', 'c0000004', 'c0000005'];
    for (const [index, uuid] of uuids.entries()) {
      await repository.create(buildParams({ params: { buildUuid: uuid } }), { precedence: index === 3 ? 100 : 200 });
    }
    // Order first (one claimer), then exclusivity (concurrent claimers, whose completion order is not defined).
    const first = await repository.claimNext('w0', new Date());
    expect(first?.buildUuid).toBe('c0000004');
    const second = await repository.claimNext('w0', new Date());
    expect(second?.buildUuid).toBe('c0000001');
    const claimed: string[] = [first?.buildUuid ?? '', second?.buildUuid ?? ''];
    const claimer = async (worker: string) => {
      for (;;) {
        const record = await repository.claimNext(worker, new Date());
        if (!record) {
          return;
        }
        expect(record).toMatchObject({ state: 'running', worker });
        claimed.push(record.buildUuid);
      }
    };
    await Promise.all([claimer('w1'), claimer('w2'), claimer('w3')]);
    expect([...claimed].sort()).toEqual(uuids);
  });

  it('writes a completion and its event once', async () => {
    await repository.create(buildParams({ params: { buildUuid: 'd0000001' } }));
    await repository.claimNext('w1', new Date());
    const payload = {
      buildUuid: 'd0000001',
      buildsetUuid: 'bs',
      tenant: 'example',
      pipeline: 'check',
      jobName: 'unit',
      attempt: 1,
      result: 'SUCCESS' as const,
      startTime: null,
      endTime: '2026-01-01T00:00:00.000Z',
      errorDetail: null,
      logUrl: null,
      artifacts: [],
      data: {},
      childJobs: null,
      warnings: [],
      worker: 'w1',
      changedFiles: null,
    };
    expect(await repository.complete(payload, new Date())).toBe(true);
    expect(await repository.complete(payload, new Date())).toBe(false);
    const events = await repository.resultEvents('example');
    expect(events.map((e) => [e.eventType, e.payload.buildUuid])).toEqual([['build-completed', 'd0000001']]);
    expect(await repository.requestCancel('d0000001', 'CANCELED', new Date())).toBe('not-cancelable');
  });

  it('flags a running build for cancel with the chosen result', async () => {
    await repository.create(buildParams({ params: { buildUuid: 'e0000001' } }));
    await repository.claimNext('w1', new Date());
    expect(await repository.requestCancel('e0000001', 'CANCELED', new Date())).toBe('cancel-requested');
    expect(await repository.cancelsRequested('w1', ['e0000001'])).toEqual(new Map([['e0000001', 'CANCELED']]));
    expect(await repository.cancelsRequested('w2', ['e0000001'])).toEqual(new Map());
  });

  it('takes a running build back unfinished only from its worker, and not once its cancel was requested', async () => {
    const now = new Date('2026-01-01T00:00:00Z');
    await repository.create(buildParams({ params: { buildUuid: 'f0000001' } }), { precedence: 1 });
    expect(await repository.claimNext('w1', now)).toMatchObject({ buildUuid: 'f0000001', state: 'running' });
    expect(await repository.handBack('f0000001', 'w2', now)).toBe(false);
    expect(await repository.handBack('f0000001', 'w1', now)).toBe(true);
    expect(await repository.get('f0000001')).toMatchObject({ state: 'requested', worker: null, started: null });
    // Requested again: the next claimer runs it, under the same uuid and attempt.
    expect(await repository.claimNext('w2', now)).toMatchObject({ buildUuid: 'f0000001', worker: 'w2' });
    expect(await repository.requestCancel('f0000001', 'CANCELED', now)).toBe('cancel-requested');
    expect(await repository.handBack('f0000001', 'w2', now)).toBe(false);
    expect(await repository.get('f0000001')).toMatchObject({ state: 'running', worker: 'w2' });
  });

  it('takes a continued paused build back to paused, its resume still requested', async () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const params = buildParams({ params: { buildUuid: 'f0000002' } });
    await repository.create(params, { precedence: 1 });
    await repository.claimNext('w1', now);
    const paused = {
      buildUuid: 'f0000002',
      buildsetUuid: params.buildsetUuid,
      tenant: 'example',
      pipeline: 'check',
      jobName: 'unit',
      attempt: 1,
      pauseTime: now.toISOString(),
      artifacts: [],
      data: {},
      childJobs: null,
      worker: 'w1',
    };
    expect(await repository.recordPaused(paused, { startTime: now.toISOString() }, now)).toBe(true);
    expect(await repository.requestResume('f0000002', now)).toBe(true);
    expect(await repository.claimPaused('f0000002', 'w1', now)).toMatchObject({ state: 'running' });
    expect(await repository.handBack('f0000002', 'w1', now)).toBe(true);
    expect(await repository.get('f0000002')).toMatchObject({ state: 'paused', worker: 'w1', resumeRequested: true });
  });
});
