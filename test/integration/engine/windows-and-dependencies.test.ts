import { engineScenarios } from '../../engine/scenarios';
import { job, pipeline } from '../../engine/scripted-layout';

describe('engine: windows, Depends-On and job dependencies', () => {
  const scenarios = engineScenarios();
  const { harness } = scenarios;

  it('shrinks the window on a failure and grows it on a merge; items outside it wait', async () => {
    const gate = pipeline('gate', 'dependent', {
      triggers: [],
      submit: true,
      window: {
        window: 4,
        floor: 2,
        ceiling: 5,
        increaseType: 'linear',
        increaseFactor: 1,
        decreaseType: 'exponential',
        decreaseFactor: 2,
      },
    });
    const h = await harness({
      pipelines: [gate],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { gate: [job('unit')] } },
    });
    for (const number of [1, 2, 3, 4, 5, 6]) {
      h.changes.add('org/project', number);
      await h.enqueue('gate', 'org/project', `${number},1`);
    }
    // Window 4: items 5 and 6 are queued outside it and do not run.
    expect(h.executor.started.map((build) => build.changes[0].number)).toEqual([1, 2, 3, 4]);
    let status = await h.engine.status(h.tenant);
    let queue = status?.pipelines[0].changeQueues[0];
    expect(queue?.window).toBe(4);
    expect(queue?.heads[0].map((item) => [item.refs[0].id, item.active, item.waitingFor])).toEqual([
      ['1,1', true, null],
      ['2,1', true, null],
      ['3,1', true, null],
      ['4,1', true, null],
      ['5,1', false, 'window'],
      ['6,1', false, 'window'],
    ]);

    // 1 fails: reported, window 4 -> 2 (exponential, floor 2).
    await h.executor.finish('unit', 1, { result: 'FAILURE' });
    await h.settle();
    expect(h.reports()).toEqual(['1,1 gate FAILURE']);
    status = await h.engine.status(h.tenant);
    queue = status?.pipelines[0].changeQueues[0];
    expect(queue?.window).toBe(2);
    expect(queue?.heads[0].map((item) => item.active)).toEqual([true, true, false, false, false]);

    // 2 merges: window 2 -> 3 (linear +1).
    await h.executor.finish('unit', 2, { result: 'SUCCESS' });
    await h.settle();
    expect(h.reports()).toEqual(['1,1 gate FAILURE', '2,1 gate SUCCESS']);
    status = await h.engine.status(h.tenant);
    expect(status?.pipelines[0].changeQueues[0].window).toBe(3);
    expect(
      h.deltas
        .filter((delta) => delta.type === 'window-changed')
        .map((delta) => delta.type === 'window-changed' && delta.window),
    ).toEqual([2, 3]);
    const sequences = h.deltas.map((delta) => delta.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(new Set(sequences).size).toBe(sequences.length);
  });

  it('enqueues a Depends-On change from another project ahead in the shared queue and merges both in order', async () => {
    const gate = pipeline('gate', 'dependent', { triggers: [], submit: true });
    const h = await harness({
      pipelines: [gate],
      projects: [
        { name: 'org/server', queue: 'integrated' },
        { name: 'org/client', queue: 'integrated' },
      ],
      jobs: { 'org/server': { gate: [job('server-unit')] }, 'org/client': { gate: [job('client-unit')] } },
    });
    h.changes.add('org/server', 10);
    h.changes.add('org/client', 20, { dependsOn: [{ project: 'org/server', number: 10 }] });
    expect(await h.enqueue('gate', 'org/client', '20,1')).toBe('ok');
    const status = await h.engine.status(h.tenant);
    const queue = status?.pipelines[0].changeQueues[0];
    expect(queue?.name).toBe('integrated');
    expect(queue?.heads[0].map((item) => [item.refs[0].id, item.refs[0].projectCanonical, item.live])).toEqual([
      ['10,1', 'git.example.com/org/server', true],
      ['20,1', 'git.example.com/org/client', true],
    ]);
    // The client change is tested with the server change merged under it.
    expect(h.merger.prepared[1]).toEqual(['10,1', '20,1']);
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['10,1 gate SUCCESS', '20,1 gate SUCCESS']);
    expect(h.merger.mergedOrder).toEqual([10, 20]);
  });

  it('holds the items needing a failing change and takes out those it is no longer ahead of', async () => {
    const gate = pipeline('gate', 'dependent', { triggers: [], submit: true });
    const h = await harness({
      pipelines: [gate],
      projects: [
        { name: 'org/server', queue: 'integrated' },
        { name: 'org/client', queue: 'integrated' },
      ],
      jobs: {
        'org/server': { gate: [job('unit'), job('lint')] },
        'org/client': { gate: [job('unit'), job('lint')] },
      },
    });
    h.changes.add('org/server', 9);
    h.changes.markMerged('org/server', 9);
    const server = (number: number) => ({ project: 'org/server', number });
    const changes: Array<[string, number, Array<{ project: string; number: number }>]> = [
      ['org/server', 1, []],
      // Needs the change just ahead, of another project.
      ['org/client', 2, [server(1)]],
      // Needs the change two items ahead.
      ['org/client', 3, [server(1)]],
      // Needs a merged change.
      ['org/server', 4, [server(9)]],
      ['org/server', 5, [{ project: 'org/client', number: 3 }, server(4)]],
    ];
    for (const [project, number, dependsOn] of changes) {
      h.changes.add(project, number, { dependsOn });
      expect(await h.enqueue('gate', project, `${number},1`)).toBe('ok');
    }
    const items = async () =>
      (await h.engine.status(h.tenant))?.pipelines[0].changeQueues[0].heads.map((head) =>
        head.map((item) => [item.refs[0].id, item.failingReasons]),
      );
    const needed = async () =>
      (await h.buildsets()).flatMap((buildset) =>
        buildset.message?.includes('is needed') ? [buildset.message.split('\n').pop()] : [],
      );
    expect(await items()).toEqual([
      [
        ['1,1', []],
        ['2,1', []],
        ['3,1', []],
        ['4,1', []],
        ['5,1', []],
      ],
    ]);
    expect(h.executor.running.size).toBe(10);

    // 1 fails and still runs a job: 2 and 3 need a failing change ahead and their builds are
    // canceled (which fails them too); 4 moves ahead of them to be tested alone, 5 with it: 3, which 5 needs, is no longer
    // ahead of 5, which leaves.
    await h.executor.finish('unit', 1, { result: 'FAILURE' });
    await h.settle();
    expect(await items()).toEqual([
      [
        ['1,1', ['at least one job failed']],
        ['2,1', ['a needed change is failing', 'at least one job failed']],
        ['3,1', ['a needed change is failing', 'at least one job failed']],
      ],
      [['4,1', []]],
    ]);
    expect(h.reports()).toEqual(['5,1 gate FAILURE']);
    expect(await needed()).toEqual(['Change https://git.example.com/c/3 is needed.']);
    expect([...h.executor.running.values()].map((build) => [build.job.name, build.changes[0].number])).toEqual([
      ['lint', 1],
      ['unit', 4],
      ['lint', 4],
    ]);

    // 1 reports and leaves unmerged: 2 and 3 leave for the change they need; 4 merges.
    await h.executor.finish('lint', 1, { result: 'SUCCESS' });
    await h.finishEverything();
    expect(h.reports()).toEqual([
      '5,1 gate FAILURE',
      '1,1 gate FAILURE',
      '2,1 gate FAILURE',
      '3,1 gate FAILURE',
      '4,1 gate SUCCESS',
    ]);
    expect(await needed()).toEqual([
      'Change https://git.example.com/c/3 is needed.',
      'Change https://git.example.com/c/1 is needed.',
      'Change https://git.example.com/c/1 is needed.',
    ]);
    expect(h.merger.mergedOrder).toEqual([4]);
  });

  it('refuses a Depends-On change whose dependency does not share the queue', async () => {
    const gate = pipeline('gate', 'dependent', { triggers: [], submit: true });
    const h = await harness({
      pipelines: [gate],
      projects: [{ name: 'org/server' }, { name: 'org/client' }],
      jobs: { 'org/server': { gate: [job('server-unit')] }, 'org/client': { gate: [job('client-unit')] } },
    });
    h.changes.add('org/server', 10);
    h.changes.add('org/client', 20, { dependsOn: [{ project: 'org/server', number: 10 }] });
    expect(await h.enqueue('gate', 'org/client', '20,1')).toBe(
      'error: Change 10,1 in project git.example.com/org/server does not share a change queue with 20,1 in project git.example.com/org/client',
    );
    expect(h.executor.started).toEqual([]);
  });

  it('places a dependency as a non-live item ahead in an independent pipeline', async () => {
    const check = pipeline('check', 'independent', { triggers: [] });
    const h = await harness({
      pipelines: [check],
      projects: [{ name: 'org/server' }, { name: 'org/client' }],
      jobs: { 'org/server': { check: [job('server-unit')] }, 'org/client': { check: [job('client-unit')] } },
    });
    h.changes.add('org/server', 10);
    h.changes.add('org/client', 20, { dependsOn: [{ project: 'org/server', number: 10 }] });
    await h.enqueue('check', 'org/client', '20,1');
    const status = await h.engine.status(h.tenant);
    expect(
      status?.pipelines[0].changeQueues[0].heads[0].map((item) => [item.refs[0].id, item.live, item.jobs.length]),
    ).toEqual([
      ['10,1', false, 0],
      ['20,1', true, 1],
    ]);
    expect(h.executor.started.map((build) => build.job.name)).toEqual(['client-unit']);
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['20,1 check SUCCESS']);
    expect((await h.engine.status(h.tenant))?.pipelines[0].changeQueues).toEqual([]);
  });

  it('keeps a chain of non-live items ahead while an item is behind each, and dequeues them once none is', async () => {
    const check = pipeline('check', 'independent', { triggers: [] });
    const h = await harness({
      pipelines: [check],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { check: [job('unit')] } },
    });
    h.changes.add('org/project', 1);
    h.changes.add('org/project', 2, { dependsOn: [{ project: 'org/project', number: 1 }] });
    h.changes.add('org/project', 3, { dependsOn: [{ project: 'org/project', number: 2 }] });
    expect(await h.enqueue('check', 'org/project', '3,1')).toBe('ok');
    await h.settle();
    // 1,1 has only the non-live 2,1 behind it: it stays as long as 2,1 does.
    const status = await h.engine.status(h.tenant);
    expect(status?.pipelines[0].changeQueues[0].heads[0].map((item) => [item.refs[0].id, item.live])).toEqual([
      ['1,1', false],
      ['2,1', false],
      ['3,1', true],
    ]);
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['3,1 check SUCCESS']);
    expect((await h.engine.status(h.tenant))?.pipelines[0].changeQueues).toEqual([]);
    const dequeued = await h.engine.dequeuedItems(h.tenant, { limit: 10 });
    expect(
      dequeued
        .map((entry) => [entry.item.changes[0].number, entry.reason?.kind])
        .sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual([
      [1, 'non-live-no-items-behind'],
      [2, 'non-live-no-items-behind'],
      [3, 'reported'],
    ]);
  });

  it('runs jobs after their dependencies, passes provides to requiring jobs behind, and skips dependents of a failure', async () => {
    const gate = pipeline('gate', 'dependent', { triggers: [], submit: true });
    const h = await harness({
      pipelines: [gate],
      projects: [
        { name: 'org/lib', queue: 'q' },
        { name: 'org/app', queue: 'q' },
      ],
      jobs: {
        'org/lib': {
          gate: [
            job('build-lib', { provides: ['lib-tarball'] }),
            job('test-lib', { dependencies: [{ name: 'build-lib', soft: false }] }),
          ],
        },
        'org/app': {
          gate: [
            job('build-app', { requires: ['lib-tarball'] }),
            job('test-app', { dependencies: [{ name: 'build-app', soft: false }] }),
            job('docs', { dependencies: [{ name: 'missing-soft', soft: true }] }),
          ],
        },
      },
    });
    h.changes.add('org/lib', 1);
    h.changes.add('org/app', 2, { dependsOn: [{ project: 'org/lib', number: 1 }] });
    await h.enqueue('gate', 'org/app', '2,1');
    expect(h.executor.started.map((build) => `${build.changes[0].number}:${build.job.name}`)).toEqual([
      '1:build-lib',
      '2:docs',
    ]);
    let status = await h.engine.status(h.tenant);
    const waiting = status?.pipelines[0].changeQueues[0].heads[0].flatMap((item) =>
      item.jobs.map((entry) => `${entry.name}=${entry.waitingStatus ?? ''}`),
    );
    expect(waiting).toEqual([
      'build-lib=executor',
      'test-lib=dependencies: build-lib',
      'build-app=requirements: lib-tarball',
      'test-app=dependencies: build-app',
      'docs=executor',
    ]);

    await h.executor.finish('build-lib', 1, {
      result: 'SUCCESS',
      artifacts: [{ name: 'tarball', url: 'https://artifacts.example.com/lib.tgz' }],
      data: { version: '1.2' },
    });
    await h.settle();
    const buildApp = h.executor.find('build-app', 2)[0];
    expect(buildApp.artifacts.map((artifact) => [artifact.name, artifact.job, artifact.change])).toEqual([
      ['tarball', 'build-lib', 1],
    ]);
    const testLib = h.executor.find('test-lib', 1)[0];
    expect(testLib.parentData).toEqual({ version: '1.2' });

    await h.executor.finish('build-app', 2, { result: 'FAILURE' });
    await h.settle();
    status = await h.engine.status(h.tenant);
    const app = status?.pipelines[0].changeQueues[0].heads.flat().find((item) => item.refs[0].id === '2,1');
    expect(app?.jobs.find((entry) => entry.name === 'test-app')?.result).toBe('SKIPPED');
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['1,1 gate SUCCESS', '2,1 gate FAILURE']);
    const provides = await scenarios.db
      .knex('provides')
      .join('builds', 'builds.id', 'provides.build_id')
      .where('builds.tenant', h.tenant)
      .select('provides.name', 'builds.job_name');
    expect(provides).toEqual([{ name: 'lib-tarball', job_name: 'build-lib' }]);
    const skipped = (await h.builds()).find((build) => build.jobName === 'test-app');
    expect([skipped?.result, skipped?.errorDetail]).toEqual(['SKIPPED', 'Skipped due to failed job build-app']);
  });
});
