/**
 * The stored pipeline state is validated when it is loaded (src/store/repositories/engine-state-json.ts): what
 * the scheduler saved loads back as it was, and a row that does not hold what its schema says is
 * refused with an error naming the tenant, the row and the field.
 */
import { EngineStateRepository } from '../../../src/store/repositories/engine-state';
import { InvalidEngineStateError } from '../../../src/store/repositories/engine-state-json';
import { engineScenarios } from '../../engine/scenarios';
import { gitTrigger, job, pipeline } from '../../engine/scripted-layout';

describe('engine: stored pipeline state', () => {
  const scenarios = engineScenarios();

  async function runningCheck() {
    const h = await scenarios.harness({
      pipelines: [pipeline('check', 'independent', { triggers: [gitTrigger(['patchset-created'])] })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { check: [job('unit'), job('lint')] } },
    });
    h.changes.add('org/project', 1);
    await h.patchsetCreated('org/project', 1);
    await h.settle();
    return h;
  }

  it('loads what the scheduler saved, item and jobs, unchanged', async () => {
    const h = await runningCheck();
    const [check] = await new EngineStateRepository(scenarios.db.knex).loadPipelines(h.tenant);
    const item = check.queues[0].items[0];
    expect(item.changes[0]).toMatchObject({ kind: 'change', number: 1, patchset: '1' });
    expect(item.buildset.jobs.map((state) => [state.job.name, state.build?.result ?? null])).toEqual([
      ['unit', null],
      ['lint', null],
    ]);
    // Loading again reads the same texts (remembered as valid) and gives equal values.
    const [again] = await new EngineStateRepository(scenarios.db.knex).loadPipelines(h.tenant);
    expect(again).toEqual(check);
  });

  it('refuses an item whose data does not match its schema, naming the item and the field', async () => {
    const h = await runningCheck();
    await h.stop();
    const [{ uuid }] = await scenarios.db.knex('queue_items').where({ tenant: h.tenant }).select('uuid');
    await scenarios.db
      .knex('queue_items')
      .where({ uuid })
      .update({ data: scenarios.db.knex.raw(`jsonb_set(data, '{live}', '"yes"')`) });
    const load = new EngineStateRepository(scenarios.db.knex).loadPipelines(h.tenant);
    await expect(load).rejects.toThrow(InvalidEngineStateError);
    await expect(load).rejects.toThrow(`Invalid stored engine state (tenant ${h.tenant}, item ${uuid}) at live:`);
  });

  it('refuses a job state that does not match its schema, naming the job', async () => {
    const h = await runningCheck();
    await h.stop();
    await scenarios.db
      .knex('queue_item_jobs')
      .whereIn('item_id', scenarios.db.knex('queue_items').select('id').where({ tenant: h.tenant }))
      .where({ job_name: 'lint' })
      .update({ frozen: scenarios.db.knex.raw(`jsonb_set(frozen, '{tries}', '"two"')`) });
    await expect(new EngineStateRepository(scenarios.db.knex).loadPipelines(h.tenant)).rejects.toThrow(
      /Invalid stored engine state \(tenant [\w-]+, job lint of item \d+\) at tries:/,
    );
  });
});
