/**
 * Paused builds (docs/gating.md#paused-builds, docs/gating.md#build-completion step 6): a parent job that pauses
 * after its run phase lets its dependents start with its data, keeps its nodes, and resumes
 * (then completes) only when every dependent has a result. Scripted executor, both backends.
 */
import { BuildRepository } from '../../../src/store/repositories/builds';
import type { JobStatus } from '../../../src/engine/status';
import { backends } from '../../helpers/database';
import { type EngineHarness } from '../../engine/harness';
import { engineScenarios } from '../../engine/scenarios';
import { gitTrigger, job, pipeline, type LayoutSpec } from '../../engine/scripted-layout';

describe.each(backends())('engine: paused builds (%s)', (backend) => {
  const scenarios = engineScenarios(backend);
  const { harness } = scenarios;

  /** check: `registry` (one node) -> `consumer` -> `late`; `lint` stands alone. */
  const registrySpec = (): Omit<LayoutSpec, 'tenant'> => ({
    pipelines: [pipeline('check', 'independent', { triggers: [gitTrigger(['patchset-created'])] })],
    projects: [{ name: 'org/project' }],
    jobs: {
      'org/project': {
        check: [
          job('registry', { nodeset: { name: 'one', labels: ['small'] } }),
          job('consumer', {
            dependencies: [{ name: 'registry', soft: false }],
            nodeset: { name: 'one', labels: ['small'] },
          }),
          job('late', { dependencies: [{ name: 'consumer', soft: false }] }),
        ],
      },
    },
  });

  /** A harness of `registrySpec` with change 1,1 uploaded and its jobs requested. */
  async function registryChangeUploaded(): Promise<EngineHarness> {
    const h = await harness(registrySpec());
    h.changes.add('org/project', 1);
    await h.patchsetCreated('org/project', 1);
    await h.settle();
    return h;
  }

  async function jobStatus(h: EngineHarness, name: string): Promise<JobStatus | undefined> {
    const status = await h.engine.status(h.tenant);
    return status?.pipelines[0].changeQueues[0]?.heads[0]?.[0]?.jobs.find((candidate) => candidate.name === name);
  }

  /** The data a build returned, as the build history keeps it (`Build.returnedData`). */
  async function returnedData(h: EngineHarness, uuid: string): Promise<Record<string, unknown> | null> {
    const build = (await h.builds()).find((candidate) => candidate.uuid === uuid);
    if (!build) {
      return null;
    }
    return (await new BuildRepository(scenarios.db.knex).listResultData([build.id])).get(build.id) ?? null;
  }

  async function buildEvents(h: EngineHarness, uuid: string): Promise<string[]> {
    const build = (await h.builds()).find((candidate) => candidate.uuid === uuid);
    if (!build) {
      return [];
    }
    return (await new BuildRepository(scenarios.db.knex).listEvents([build.id])).map((event) => event.eventType);
  }

  /** Job deltas in order, as `<type> <job>`. */
  function jobDeltas(h: EngineHarness): string[] {
    return h.deltas
      .filter((delta) => delta.type.startsWith('job-') && delta.type !== 'job-waiting')
      .map((delta) => `${delta.type} ${'job' in delta ? delta.job : ''}`);
  }

  it('starts the dependents after the pause with its data and completes the parent after them', async () => {
    const h = await registryChangeUploaded();
    expect(h.executor.find('registry')).toHaveLength(1);
    expect(h.executor.find('consumer')).toHaveLength(0);
    const parentUuid = h.executor.find('registry')[0].buildUuid;
    const parentNodes = h.executor.find('registry')[0].nodes;
    expect(parentNodes).toHaveLength(1);

    expect(
      await h.executor.pause('registry', 1, {
        data: { registry_url: 'http://registry:5000' },
        artifacts: [{ name: 'image', url: 'http://registry:5000/image' }],
      }),
    ).toBe(1);
    await h.settle();
    const [consumer] = h.executor.find('consumer');
    expect(consumer.parentData).toEqual({ registry_url: 'http://registry:5000' });
    expect(consumer.artifacts).toEqual([
      expect.objectContaining({ name: 'image', url: 'http://registry:5000/image', job: 'registry' }),
    ]);
    // Children of a paused parent are asked for with a better priority (docs/gating.md#semaphores).
    expect(h.nodes.requests.find((request) => request.jobName === 'consumer')?.priority).toBe(199);
    expect(await jobStatus(h, 'registry')).toMatchObject({ paused: true, result: null });
    expect(await jobStatus(h, 'consumer')).toMatchObject({ paused: false, result: null });
    expect(await buildEvents(h, parentUuid)).toEqual(['paused']);
    // What it returned at the pause is in the build history while it waits.
    expect(await returnedData(h, parentUuid)).toEqual({ registry_url: 'http://registry:5000' });
    // The paused build keeps its nodes and cannot complete before it is resumed.
    expect(h.nodes.returned).toEqual([]);
    await expect(h.executor.finish('registry', 1, { result: 'SUCCESS' })).rejects.toThrow(/is paused/);

    await h.executor.finish('consumer', 1, { result: 'SUCCESS' });
    await h.settle();
    // `late` depends on the parent transitively: the parent waits for it too.
    expect(h.executor.find('late')).toHaveLength(1);
    expect(h.executor.resumed).toEqual([]);
    expect(await jobStatus(h, 'registry')).toMatchObject({ paused: true });

    await h.executor.finish('late', 1, { result: 'SUCCESS' });
    await h.settle();
    expect(h.executor.resumed).toEqual([parentUuid]);
    expect(await jobStatus(h, 'registry')).toMatchObject({ paused: false, result: null });
    expect(await buildEvents(h, parentUuid)).toEqual(['paused', 'resumed']);
    expect(h.reports()).toEqual([]);
    expect(h.nodes.returned.map((node) => node.id)).not.toContain(parentNodes[0].id);

    await h.executor.finish('registry', 1, {
      result: 'SUCCESS',
      data: { registry_url: 'http://registry:5000', stopped: true },
    });
    await h.settle();
    expect(h.reports()).toEqual(['1,1 check SUCCESS']);
    expect(await returnedData(h, parentUuid)).toEqual({ registry_url: 'http://registry:5000', stopped: true });
    expect(await returnedData(h, consumer.buildUuid)).toBeNull(); // returned nothing
    expect(h.nodes.returned.map((node) => node.id)).toContain(parentNodes[0].id);
    expect(jobDeltas(h)).toEqual([
      'job-started registry',
      'job-paused registry',
      'job-started consumer',
      'job-completed consumer',
      'job-started late',
      'job-completed late',
      'job-resumed registry',
      'job-completed registry',
    ]);
    const builds = await h.builds();
    expect(builds.map((build) => `${build.jobName}:${build.result}`)).toEqual([
      'registry:SUCCESS',
      'consumer:SUCCESS',
      'late:SUCCESS',
    ]);
    expect(await buildEvents(h, parentUuid)).toEqual(['paused', 'resumed']);
  });

  it('prunes dependents by child_jobs when pausing, and resumes at once without dependents', async () => {
    const h = await harness({
      pipelines: [pipeline('check', 'independent', { triggers: [gitTrigger(['patchset-created'])] })],
      projects: [{ name: 'org/project' }],
      jobs: {
        'org/project': {
          check: [
            job('registry'),
            job('wanted', { dependencies: [{ name: 'registry', soft: false }] }),
            job('unwanted', { dependencies: [{ name: 'registry', soft: false }] }),
            job('after-unwanted', { dependencies: [{ name: 'unwanted', soft: false }] }),
            job('solo'),
          ],
        },
      },
    });
    h.changes.add('org/project', 1);
    await h.patchsetCreated('org/project', 1);
    await h.settle();
    await h.executor.pause('registry', 1, { childJobs: ['wanted'] });
    await h.executor.pause('solo', 1);
    await h.settle();
    const soloUuid = h.executor.find('solo')[0].buildUuid;
    // Nothing depends on `solo`: it is resumed in the pass that saw it pause.
    expect(h.executor.resumed).toEqual([soloUuid]);
    expect(h.executor.find('wanted')).toHaveLength(1);
    const builds = await h.builds();
    expect(
      builds
        .filter((build) => build.result === 'SKIPPED')
        .map((build) => `${build.jobName}: ${build.errorDetail}`)
        .sort(),
    ).toEqual([
      'after-unwanted: Skipped due to child_jobs return value in job registry',
      'unwanted: Skipped due to child_jobs return value in job registry',
    ]);
    await h.executor.finish('wanted', 1, { result: 'FAILURE' });
    await h.settle();
    // A failed dependent still has a result: the parent resumes.
    expect(h.executor.resumed).toHaveLength(2);
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['1,1 check FAILURE']);
  });

  it('cancels a paused build when its item is dequeued', async () => {
    const h = await registryChangeUploaded();
    const parentUuid = h.executor.find('registry')[0].buildUuid;
    await h.executor.pause('registry', 1, { data: { registry_url: 'http://registry:5000' } });
    await h.settle();
    const consumerUuid = h.executor.find('consumer')[0].buildUuid;
    expect(await jobStatus(h, 'registry')).toMatchObject({ paused: true });

    const dequeued = await h.engine.dequeue(h.tenant, {
      pipeline: 'check',
      project: 'org/project',
      change: '1,1',
      by: 'alice',
    });
    expect(dequeued.ok).toBe(true);
    await h.settle();
    expect(h.executor.canceled.sort()).toEqual([consumerUuid, parentUuid].sort());
    expect(h.executor.resumed).toEqual([]);
    expect((await h.engine.status(h.tenant))?.pipelines[0].changeQueues.flatMap((queue) => queue.heads)).toEqual([]);
    const builds = await h.builds();
    expect(builds.map((build) => `${build.jobName}:${build.result}`)).toEqual([
      'registry:ABORTED',
      'consumer:CANCELED',
      'late:CANCELED',
    ]);
    expect(await buildEvents(h, parentUuid)).toEqual(['paused']);
    expect(h.nodes.returned).toHaveLength(2);
  });

  it('keeps a paused build across a restart and resumes it from the new process', async () => {
    const first = await registryChangeUploaded();
    const parentUuid = first.executor.find('registry')[0].buildUuid;
    await first.executor.pause('registry', 1, { data: { registry_url: 'http://registry:5000' } });
    await first.settle();

    // The executor outlives the scheduler (its build requests are rows in the store).
    const restart = (previous: EngineHarness): Promise<EngineHarness> =>
      scenarios.restart(previous, { keepExecutor: true });
    const second = await restart(first);
    expect(await jobStatus(second, 'registry')).toMatchObject({ paused: true });
    expect(second.executor.started.filter((params) => params.job.name === 'registry')).toHaveLength(1);
    expect(await second.executor.finish('consumer', 1, { result: 'SUCCESS' })).toBe(1);
    await second.settle();
    expect(await second.executor.finish('late', 1, { result: 'SUCCESS' })).toBe(1);
    await second.settle();
    expect(second.executor.resumed).toEqual([parentUuid]);

    // A restart after the resume was asked for asks again (the first request may have been lost).
    const third = await restart(second);
    expect(third.executor.resumed).toEqual([parentUuid, parentUuid]);
    await third.executor.finish('registry', 1, { result: 'SUCCESS' });
    await third.settle();
    expect((await third.buildsets()).map((buildset) => buildset.result)).toEqual(['SUCCESS']);
    expect(await buildEvents(third, parentUuid)).toEqual(['paused', 'resumed']);
  });

  it('runs the dependents again when a resumed parent is retried', async () => {
    const h = await registryChangeUploaded();
    await h.executor.pause('registry', 1);
    await h.settle();
    await h.executor.finish('consumer', 1, { result: 'SUCCESS' });
    await h.settle();
    await h.executor.finish('late', 1, { result: 'SUCCESS' });
    await h.settle();
    expect(h.executor.resumed).toHaveLength(1);
    // The executor lost the build while finishing it: retried, and its children with it.
    await h.executor.finish('registry', 1, { result: null });
    await h.settle();
    expect(h.executor.find('registry')).toHaveLength(1);
    expect(h.executor.find('consumer')).toHaveLength(0);
    expect(await jobStatus(h, 'consumer')).toMatchObject({ result: null, uuid: null });
    await h.executor.pause('registry', 1);
    await h.settle();
    await h.executor.finish('consumer', 1, { result: 'SUCCESS' });
    await h.settle();
    await h.executor.finish('late', 1, { result: 'SUCCESS' });
    await h.settle();
    expect(h.executor.resumed).toHaveLength(2);
    await h.executor.finish('registry', 1, { result: 'SUCCESS' });
    await h.settle();
    expect(h.reports()).toEqual(['1,1 check SUCCESS']);
    expect(h.executor.started.map((params) => params.job.name)).toEqual([
      'registry',
      'consumer',
      'late',
      'registry',
      'consumer',
      'late',
    ]);
    const builds = await h.builds();
    expect(builds.filter((build) => build.final).map((build) => `${build.jobName}:${build.result}`)).toEqual([
      'consumer:SUCCESS',
      'late:SUCCESS',
      'registry:SUCCESS',
      'consumer:SUCCESS',
      'late:SUCCESS',
    ]);
  });
});
