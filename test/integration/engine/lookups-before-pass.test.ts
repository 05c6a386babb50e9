/**
 * The changes a pass's events name are read before its transaction opens (docs/gating.md#engine-work):
 * on PGlite (one connection) a change source that queries the store while it answers finds the
 * store free, for the trigger's change and for the change it depends on. Were the look-up made
 * inside the pass, the pass would hold the only connection and the query would wait for it.
 */
import type { Knex } from 'knex';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { FakeChanges } from '../../engine/fake-changes';
import { canonical, FakeClock, gitTrigger, job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';

/** Answers as FakeChanges does, after noting whether the store could answer a query meanwhile. */
class ProbingChanges extends FakeChanges {
  readonly probes: string[] = [];
  knex: Knex | null = null;

  override async getChange(project: string, number: number, patchset?: string) {
    if (this.knex) {
      const probe = await Promise.race([
        this.knex.raw('select 1').then(() => 'free'),
        new Promise<string>((resolve) => setTimeout(() => resolve('held by a transaction'), 1500).unref()),
      ]);
      this.probes.push(`${number}: ${probe}`);
    }
    return super.getChange(project, number, patchset);
  }
}

describe('change look-ups before the pass', () => {
  let db: TestDatabase;
  let h: EngineHarness;

  beforeAll(async () => {
    db = await createTestDatabase({ backend: 'pglite' });
  });

  afterAll(async () => {
    await h.stop();
    await db.destroy();
    expect(h.errors).toEqual([]);
  });

  it('reads the trigger change and the change it depends on with no transaction open', async () => {
    const changes = new ProbingChanges();
    h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [pipeline('check', 'independent', { triggers: [gitTrigger(['patchset-created'])] })],
        projects: [{ name: 'org/project' }, { name: 'org/lib' }],
        jobs: { 'org/project': { check: [job('unit')] }, 'org/lib': { check: [job('unit')] } },
      }),
      { clock: new FakeClock(), changes },
    );
    await h.start();
    changes.add('org/lib', 2);
    changes.add('org/project', 1, { dependsOn: [{ project: canonical('org/lib'), number: 2 }] });
    changes.knex = db.knex;
    await h.engine.submitTrigger(h.tenant, {
      type: 'patchset-created',
      project: canonical('org/project'),
      change: 1,
      patchset: '1',
    });
    await h.settle();
    expect(h.executor.started.map((build) => build.mergeItems.map((item) => item.number).at(-1))).toContain(1);
    expect(changes.probes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(changes.probes)).toEqual(new Set(['1: free', '2: free']));
  });
});
