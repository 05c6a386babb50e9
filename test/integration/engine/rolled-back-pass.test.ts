/**
 * A pass that is rolled back leaves in memory what it did (an item enqueued, builds started whose
 * history rows were never committed). The scheduler reads the tenant again from the store before
 * its next pass, and when that read fails too (the database still starting after a restart), it
 * runs no pass until a read succeeds (docs/operations.md#database-links). A pass run on the
 * rolled-back memory would commit builds whose history rows do not exist, and their results
 * would then fail every pass ("build N does not exist").
 */
import { EngineHarness, nextTenant } from '../../engine/harness';
import { gitTrigger, job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { EngineStateRepository } from '../../../src/store/repositories/engine-state';

describe('engine: a rolled-back pass, then a store that cannot be read for a while', () => {
  let db: TestDatabase;
  let h: EngineHarness;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await h.stop();
    jest.restoreAllMocks();
    await db.destroy();
  });

  it('runs no pass on the rolled-back state and reports the change once', async () => {
    h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [pipeline('check', 'independent', { triggers: [gitTrigger(['patchset-created'])] })],
        projects: [{ name: 'org/project' }],
        jobs: { 'org/project': { check: [job('unit'), job('lint')] } },
      }),
    );
    await h.start();
    await h.settle();

    // The pass that enqueues the change and starts its builds fails as it saves the item; the
    // next two reads of the tenant's state fail as well, as they do while a database restarts.
    const save = EngineStateRepository.prototype.saveChanges;
    let saveFailures = 1;
    jest.spyOn(EngineStateRepository.prototype, 'saveChanges').mockImplementation(function (
      this: EngineStateRepository,
      ...args
    ) {
      if (saveFailures > 0) {
        saveFailures -= 1;
        return Promise.reject(new Error('injected: connection terminated while saving'));
      }
      return save.apply(this, args);
    });
    const load = EngineStateRepository.prototype.loadPipelines;
    let loadFailures = 2;
    jest.spyOn(EngineStateRepository.prototype, 'loadPipelines').mockImplementation(function (
      this: EngineStateRepository,
      ...args
    ) {
      // Only the scheduler's own reads (outside a pass's transaction) fail.
      if (saveFailures === 0 && loadFailures > 0 && args[1] === undefined) {
        loadFailures -= 1;
        return Promise.reject(new Error('injected: the database system is starting up'));
      }
      return load.apply(this, args);
    });

    h.changes.add('org/project', 1);
    await h.patchsetCreated('org/project', 1);
    await h.settle();
    expect(saveFailures).toBe(0);
    expect(h.executor.running.size).toBe(2);
    await h.executor.finishAll({ result: 'SUCCESS' });
    await h.settle();

    expect(h.reports()).toEqual(['1,1 check SUCCESS']);
    const builds = await h.builds();
    expect(builds.map((build) => [build.jobName, build.result]).sort()).toEqual([
      ['lint', 'SUCCESS'],
      ['unit', 'SUCCESS'],
    ]);
    expect(loadFailures).toBe(0);
    // Only the injected failures were logged: no pass failed on state the store never had.
    expect(h.errors.map((error) => error.replace(/: Error: injected: [\s\S]*$/, ': injected'))).toEqual([
      `scheduler pass failed for tenant ${h.tenant}: injected`,
      `reloading the state of tenant ${h.tenant} failed: injected`,
      `reloading the state of tenant ${h.tenant} failed: injected`,
    ]);
  });
});
