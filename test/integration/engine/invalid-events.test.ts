/** Events whose stored payload does not match their type: recorded with the reason, never retried, never blocking. */
import { engineScenarios } from '../../engine/scenarios';
import { canonical, gitTrigger, job, pipeline } from '../../engine/scripted-layout';

describe('engine: invalid stored events', () => {
  const scenarios = engineScenarios();
  const { harness } = scenarios;

  it('marks an event with an invalid payload with its error and goes on with the events behind it', async () => {
    const h = await harness({
      pipelines: [pipeline('check', 'independent', { triggers: [gitTrigger(['patchset-created'])] })],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { check: [job('unit')] } },
    });
    h.changes.add('org/project', 1);
    await h.stop();
    // Written by hand, as a foreign or older writer could: the trigger lacks its project, the
    // management event names no pipeline, the result event says it is a trigger.
    const rows = await scenarios.db
      .knex('engine_events')
      .insert([
        {
          tenant: h.tenant,
          category: 'trigger',
          event_type: 'patchset-created',
          payload: { change: 1 },
          created: h.clock.now(),
        },
        {
          tenant: h.tenant,
          category: 'management',
          event_type: 'dequeue',
          payload: { project: 'x' },
          created: h.clock.now(),
        },
        {
          tenant: h.tenant,
          category: 'trigger',
          event_type: 'build-started',
          payload: { buildUuid: 'b1', startTime: h.clock.now().toISOString() },
          created: h.clock.now(),
        },
      ])
      .returning('id');
    const ids = rows.map((row: { id: number | string }) => Number(row.id));
    const restarted = await scenarios.restart(h, { keepExecutor: false });
    expect(
      await restarted.trigger({
        type: 'patchset-created',
        project: canonical('org/project'),
        change: 1,
        patchset: '1',
      }),
    ).toBe('entered 1');
    expect(await Promise.all(ids.map((id) => restarted.engine.eventOutcome(id)))).toEqual([
      'error: invalid patchset-created event: project: Invalid input: expected string, received undefined',
      'error: invalid dequeue event: pipeline: Invalid input: expected string, received undefined',
      'error: invalid build-started event: not a trigger event',
    ]);
    expect(restarted.executor.started.map((build) => build.job.name)).toEqual(['unit']);
  });
});
