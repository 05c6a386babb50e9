/**
 * A tag's containing branches are engine work (docs/gating.md#engine-work, `tag-branches`): the
 * pass stores the look-up, the work runner asks the merger with no transaction open, and the job
 * graph is frozen with the answer (docs/project-configuration.md#jobs); a failed look-up makes
 * the item unable to merge. Branch items need no look-up, nor do items of other refs (matched on
 * their ref only).
 */
import type { EngineLayout } from '../../../src/engine/ports/layout';
import type { MergeItem } from '../../../src/model/changes';
import { EngineWorkRepository } from '../../../src/store/repositories/engine-work';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { FakeChanges } from '../../engine/fake-changes';
import { ScriptedMerger } from '../../engine/scripted-gateways';
import { FakeClock, gitTrigger, job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';

/** A merger whose look-up of a chosen commit fails. */
class TagMerger extends ScriptedMerger {
  readonly asked: string[] = [];
  readonly failing = new Set<string>();

  override branchesContaining(item: MergeItem): Promise<string[]> {
    this.asked.push(`${item.ref} ${item.newrev ?? ''}`);
    if (this.failing.has(item.newrev ?? '')) {
      return Promise.reject(new Error('the mirror cannot be fetched'));
    }
    return super.branchesContaining(item);
  }
}

describe('engine work: the branches containing a tag', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let merger: TagMerger;
  const tags: unknown[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const changes = new FakeChanges();
    merger = new TagMerger(changes);
    const layout = makeLayout({
      tenant: nextTenant(),
      pipelines: [pipeline('release', 'independent', { triggers: [gitTrigger(['ref-updated'])] })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { release: [job('publish')] } },
    });
    const freeze = layout.freezeJobGraph.bind(layout);
    const watched: EngineLayout = {
      ...layout,
      freezeJobGraph: (pipelineName, project, branch, files, options) => {
        tags.push(options?.ref ?? null);
        return freeze(pipelineName, project, branch, files, options);
      },
    };
    h = new EngineHarness(db, watched, { clock: new FakeClock(), changes, merger });
    await h.start();
  });

  afterAll(async () => {
    await h.stop();
    expect(h.errors).toEqual([]);
    await db.destroy();
  });

  const refUpdated = (ref: string, newrev: string) =>
    h.trigger({ type: 'ref-updated', project: 'org/project', ref, oldrev: null, newrev });

  it('freezes a tag with the branches the merger found, and a branch without a look-up', async () => {
    merger.containing.set('c1', ['stable/1', 'master']);
    await refUpdated('refs/tags/v1', 'c1');
    await h.settle();
    expect(merger.asked).toEqual(['refs/tags/v1 c1']);
    expect(tags).toEqual([{ ref: 'refs/tags/v1', containingBranches: ['stable/1', 'master'] }]);
    expect(h.executor.started.map((build) => build.job.name)).toEqual(['publish']);
    const work = new EngineWorkRepository(db.knex);
    expect((await work.all(h.tenant)).map((row) => [row.kind, row.outcome])).toEqual([
      ['tag-branches', 'branches: stable/1, master'],
    ]);

    await refUpdated('refs/heads/master', 'c2');
    await h.settle();
    expect(merger.asked).toHaveLength(1);
    expect(tags.at(-1)).toBeNull();
    expect(h.executor.started.map((build) => build.job.name)).toEqual(['publish', 'publish']);

    // Another ref that is no branch: matched on its ref only, nothing looked up.
    await refUpdated('refs/notes/commits', 'c4');
    await h.settle();
    expect(merger.asked).toHaveLength(1);
    expect(tags.at(-1)).toEqual({ ref: 'refs/notes/commits', containingBranches: [] });
    expect(h.executor.started).toHaveLength(3);
  });

  it('makes a tag unable to merge when the look-up fails', async () => {
    merger.failing.add('c3');
    const started = h.executor.started.length;
    await refUpdated('refs/tags/v3', 'c3');
    await h.settle();
    expect(h.executor.started).toHaveLength(started);
    expect(h.reports().at(-1)).toBe('c3 release MERGE_CONFLICT'); // a ref's id is its new revision
    const work = new EngineWorkRepository(db.knex);
    expect((await work.all(h.tenant)).map((row) => row.outcome).at(-1)).toBe('error: the mirror cannot be fetched');
  });
});
