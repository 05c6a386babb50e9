/** Build-history repositories: the write paths the engine uses and the list filters REST relies on. */
import { backends, createTestDatabase, type TestDatabase } from '../helpers/database';
import { defaultRef, historyFactory, type HistoryFactory } from '../helpers/factories';
import { RefRepository } from '../../src/store/repositories/refs';

describe.each(backends())('build history store on %s', (backend) => {
  let database: TestDatabase;
  let factory: HistoryFactory;

  beforeAll(async () => {
    database = await createTestDatabase({ backend });
    factory = historyFactory(database.knex);
  });

  afterAll(async () => {
    await database.destroy();
  });

  it('reuses a ref with the same unique columns, null columns included', async () => {
    const refs = new RefRepository(database.knex);
    const first = await refs.getOrCreate({ project: 'org/same', ref: 'refs/heads/main', branch: 'main', refUrl: 'u1' });
    const second = await refs.getOrCreate({
      project: 'org/same',
      ref: 'refs/heads/main',
      branch: 'other',
      refUrl: 'u2',
    });
    const third = await refs.getOrCreate({ project: 'org/same', ref: 'refs/heads/main', newrev: 'abc' });
    expect(second.id).toBe(first.id);
    expect(second.branch).toBe('main');
    expect(second.refUrl).toBe('u1');
    expect(third.id).not.toBe(first.id);
  });

  it('creates a buildset with linked refs and a triggered event', async () => {
    const created = await factory.buildset({
      refs: [defaultRef(), defaultRef({ project: 'org/project1', change: 2, ref: 'refs/changes/02/2/1' })],
    });
    expect(created.refs.map((ref) => ref.project)).toEqual(['org/project', 'org/project1']);
    const linked = await new RefRepository(database.knex).listForBuildsets([created.buildset.id]);
    expect(linked.map((link) => link.ref.id)).toEqual(created.refs.map((ref) => ref.id));
    const events = await factory.buildsets.listEvents([created.buildset.id]);
    expect(events).toEqual([
      expect.objectContaining({
        eventType: 'triggered',
        description: 'Triggered by change org/project 1,1',
        buildsetId: created.buildset.id,
      }),
    ]);
    expect(created.buildset.result).toBeNull();
  });

  it('starts and completes builds, then finishes the buildset with its time span', async () => {
    const set = await factory.buildset({ tenant: 'writes' });
    const first = await factory.build(set, {
      jobName: 'merge',
      result: 'SUCCESS',
      artifacts: [
        { name: 'tarball', url: 'http://example.com/tarball' },
        { name: 'docs', url: 'http://example.com/docs', metadata: { foo: 'bar' } },
      ],
      provides: ['thing'],
      events: [{ eventTime: factory.tick(), eventType: 'paused', description: 'waiting' }],
      durationSeconds: 90,
    });
    const running = await factory.build(set, { jobName: 'test' });
    expect(first.tenant).toBe('writes');
    expect(first.result).toBe('SUCCESS');
    expect(running.result).toBeNull();
    expect(running.endTime).toBeNull();

    const [reloaded] = await factory.buildsets.findByIds([set.buildset.id]);
    expect(reloaded.firstBuildStartTime).toEqual(first.startTime);

    const artifacts = await factory.builds.listArtifacts([first.id]);
    expect(artifacts.map((artifact) => [artifact.name, artifact.metadata])).toEqual([
      ['docs', { foo: 'bar' }],
      ['tarball', null],
    ]);
    expect((await factory.builds.listProvides([first.id])).map((provide) => provide.name)).toEqual(['thing']);
    expect((await factory.builds.listEvents([first.id])).map((event) => event.eventType)).toEqual(['paused']);

    const finished = await factory.finish(set.buildset, 'SUCCESS', 'Build succeeded.');
    expect(finished.result).toBe('SUCCESS');
    expect(finished.message).toBe('Build succeeded.');
    expect(finished.lastBuildEndTime).toEqual(first.endTime);
  });

  it('keeps returned data until the build completes returning none, in the same statement as its end', async () => {
    const set = await factory.buildset({ tenant: 'returned-data' });
    const builds = factory.builds;
    const kept = await builds.start({
      buildsetId: set.buildset.id,
      uuid: 'a'.repeat(32),
      jobName: 'kept',
      startTime: factory.tick(),
    });
    const cleared = await builds.start({
      buildsetId: set.buildset.id,
      uuid: 'b'.repeat(32),
      jobName: 'cleared',
      startTime: factory.tick(),
    });
    // Both paused with data (a paused build returns it before it ends).
    await builds.setResultData(kept.id, { registry: 'r1' });
    await builds.setResultData(cleared.id, { registry: 'r2' });
    await builds.complete(kept.id, { result: 'SUCCESS', endTime: factory.tick(), resultData: { registry: 'r3' } });
    await builds.complete(cleared.id, { result: 'SUCCESS', endTime: factory.tick(), resultData: {} });
    const data = await builds.listResultData([kept.id, cleared.id]);
    expect([...data.entries()]).toEqual([[kept.id, { registry: 'r3' }]]);
    const [completed] = await builds.findByIds([cleared.id]);
    expect(completed.result).toBe('SUCCESS');
  });

  it('records placeholder builds that never started', async () => {
    const set = await factory.buildset({ tenant: 'placeholders' });
    const skipped = await factory.builds.recordPlaceholder({
      buildsetId: set.buildset.id,
      uuid: 'f'.repeat(32),
      jobName: 'test2',
      result: 'SKIPPED',
      endTime: factory.tick(),
      errorDetail: 'Skipped due to failed job merge',
    });
    expect(skipped).toEqual(
      expect.objectContaining({
        result: 'SKIPPED',
        errorDetail: 'Skipped due to failed job merge',
        final: true,
        tenant: 'placeholders',
      }),
    );
    expect(skipped.startTime).toEqual(skipped.endTime);
  });

  it('escapes LIKE metacharacters in wildcard filters', async () => {
    const set = await factory.buildset({ tenant: 'wild', refs: [defaultRef({ branch: 'master' })] });
    await factory.build(set, { jobName: 'a_b', result: 'SUCCESS' });
    await factory.build(set, { jobName: 'axb', result: 'SUCCESS' });
    const page = { limit: 10, offset: 0, fromEnd: false };
    expect(await factory.builds.list('wild', { branch: ['%master%', '%mast_r'] }, page)).toHaveLength(0);
    expect((await factory.builds.list('wild', { jobName: ['a_*'] }, page)).map((build) => build.jobName)).toEqual([
      'a_b',
    ]);
    expect(await factory.builds.count('wild', { branch: ['*ast*'] })).toBe(2);
  });
});
