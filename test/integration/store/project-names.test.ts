/**
 * Short project names in build history (docs/gating.md#project-names-in-history): migration 0011
 * derives them from the canonical names of existing rows, and `reconcileProjectNames` puts the
 * rows of configured projects right from the configuration, on both stores.
 */
import { migrateLatest, migrateUpTo } from '../../../src/store/migrate';
import { BuildRepository } from '../../../src/store/repositories/builds';
import { BuildsetRepository } from '../../../src/store/repositories/buildsets';
import { reconcileProjectNames } from '../../../src/store/repositories/project-names';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';

const PAGE = { limit: 50, offset: 0, fromEnd: false };

/** A buildset with one build of `project` (canonical name) as the store held them before 0011. */
async function oldHistory(db: TestDatabase, project: string, change: number): Promise<void> {
  const [ref] = await db
    .knex('refs')
    .insert({ project, ref: `refs/changes/0${change}/${change}/1`, change, patchset: '1', branch: 'master' })
    .returning('id');
  const [buildset] = await db
    .knex('buildsets')
    .insert({ uuid: `bs${change}`, tenant: 't1', pipeline: 'gate', result: 'SUCCESS' })
    .returning('id');
  await db.knex('buildset_refs').insert({ buildset_id: buildset.id, ref_id: ref.id });
  await db.knex('builds').insert({
    buildset_id: buildset.id,
    tenant: 't1',
    uuid: `b${change}`,
    job_name: 'unit',
    result: 'SUCCESS',
    start_time: new Date('2026-01-01T00:00:00Z'),
    end_time: new Date('2026-01-01T00:01:00Z'),
    final: true,
    ref_id: ref.id,
    project,
    branch: 'master',
    pipeline: 'gate',
  });
}

describe.each(backends())('short project names in history on %s', (backend) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ backend, migrate: false });
    await migrateUpTo(db.knex, '0010-build-request-pause');
    await oldHistory(db, 'git.example.local/example/hello', 1);
    // A host name with a slash: the migration cannot know where the host ends.
    await oldHistory(db, 'example.com/git/org/project', 2);
    await oldHistory(db, 'bare-name', 3);
    expect(await migrateLatest(db.knex)).toEqual(expect.arrayContaining(['0011-short-project-names']));
  }, 60_000);

  afterAll(async () => {
    await db.destroy();
  });

  const names = async (table: 'refs' | 'builds') => db.knex(table).orderBy('id').select('project', 'project_canonical');

  it('derives the name of existing rows from the canonical name', async () => {
    const expected = [
      { project: 'example/hello', project_canonical: 'git.example.local/example/hello' },
      { project: 'git/org/project', project_canonical: 'example.com/git/org/project' },
      { project: 'bare-name', project_canonical: 'bare-name' },
    ];
    expect(await names('refs')).toEqual(expected);
    expect(await names('builds')).toEqual(expected);
  });

  it('corrects the rows of configured projects from the configuration, once', async () => {
    const projects = [
      { name: 'org/project', canonicalName: 'example.com/git/org/project' },
      { name: 'example/hello', canonicalName: 'git.example.local/example/hello' },
    ];
    expect(await reconcileProjectNames(db.knex, projects)).toBe(2);
    expect((await names('refs'))[1]).toEqual({
      project: 'org/project',
      project_canonical: 'example.com/git/org/project',
    });
    expect((await names('builds'))[1]).toEqual({
      project: 'org/project',
      project_canonical: 'example.com/git/org/project',
    });
    expect(await reconcileProjectNames(db.knex, projects)).toBe(0);
    expect(await reconcileProjectNames(db.knex, [])).toBe(0);
  });

  it('filters history by the name or the canonical name', async () => {
    const builds = new BuildRepository(db.knex);
    const buildsets = new BuildsetRepository(db.knex);
    for (const project of ['org/project', 'example.com/git/org/project', 'org/*', 'example.com/*']) {
      expect([project, (await builds.list('t1', { project: [project] }, PAGE)).map((build) => build.uuid)]).toEqual([
        project,
        ['b2'],
      ]);
      expect([project, (await buildsets.list('t1', { project: [project] }, PAGE)).map((set) => set.uuid)]).toEqual([
        project,
        ['bs2'],
      ]);
    }
    expect((await builds.list('t1', { project: ['example/hello', 'bare-name'] }, PAGE)).map((b) => b.uuid)).toEqual([
      'b3',
      'b1',
    ]);
  });

  it('keeps the name with the canonical name on new rows', async () => {
    const buildsets = new BuildsetRepository(db.knex);
    const { buildset, refs } = await buildsets.create({
      uuid: 'bs4',
      tenant: 't1',
      pipeline: 'check',
      eventId: null,
      eventTimestamp: null,
      refs: [
        { project: 'example/hello', projectCanonical: 'git.example.local/example/hello', ref: 'refs/heads/master' },
      ],
      triggeredBy: 'Triggered by test',
      at: new Date('2026-01-02T00:00:00Z'),
    });
    expect(refs[0]).toMatchObject({ project: 'example/hello', projectCanonical: 'git.example.local/example/hello' });
    const build = await new BuildRepository(db.knex).start({
      buildsetId: buildset.id,
      uuid: 'b4',
      jobName: 'unit',
      startTime: new Date('2026-01-02T00:00:01Z'),
      refId: refs[0].id,
    });
    expect(await db.knex('builds').where({ id: build.id }).first('project', 'project_canonical')).toEqual({
      project: 'example/hello',
      project_canonical: 'git.example.local/example/hello',
    });
  });
});
