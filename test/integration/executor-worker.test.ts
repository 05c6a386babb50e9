import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { allowedHostEnvironment } from '../../src/executor/step-environment';
import type { BuildNode, BuildRequestParams } from '../../src/model/build-request';
import { buildParams, step } from '../helpers/build-params';
import { createExecutorHarness, type ExecutorHarness } from '../helpers/executor';
import { LostWorkRepository } from '../../src/store/repositories/lost-work';

const SCRIPTS = {
  'run.sh': `echo "building $SLUICE_PROJECT $SLUICE_CHANGE,$SLUICE_PATCHSET"
cat > "$SLUICE_RESULTS_FILE" <<JSON
{"artifacts": [{"name": "report", "url": "report.html"}], "data": {"version": "$SLUICE_VAR_version"}}
JSON
echo '<p>report</p>' > "$SLUICE_LOG_DIR/report.html"
`,
  'env.sh': 'env\n',
  'wait.sh': 'echo waiting\nwhile [ ! -f "$SLUICE_VAR_flag" ]; do sleep 0.05; done\necho released\n',
  'long.sh': 'echo long\nsleep 30\n',
  'where.sh':
    'echo "workspace=$SLUICE_WORKSPACE node=$SLUICE_NODE_DIR home=$HOME"\ncat "$SLUICE_WORKSPACE/from-image"\n',
};

function localNode(id: string, dir: string): BuildNode {
  return {
    id,
    label: 'small',
    connectionType: 'local',
    connection: 'local',
    host: 'localhost',
    port: null,
    username: null,
    path: dir,
    hostKeys: [],
  };
}

describe('ExecutorWorker', () => {
  let harness: ExecutorHarness;

  beforeAll(async () => {
    harness = await createExecutorHarness(SCRIPTS, {
      hostEnv: allowedHostEnvironment({ PATH: process.env.PATH, DATABASE_URL: 'postgres://user:hunter2@db/sluice' }),
    });
    harness.worker.start();
  });

  afterAll(() => harness.close());

  it('runs a claimed build at the speculative state and reports started and completed events', async () => {
    await harness.enqueue('aa000000000000000000000000000001', { run: [step('run.sh')], vars: { version: '1.0' } });
    const done = await harness.completion('aa000000000000000000000000000001');
    const logUrl = 'http://localhost:9000/logs/example/aa/aa000000000000000000000000000001/';
    expect(done).toMatchObject({
      buildUuid: 'aa000000000000000000000000000001',
      buildsetUuid: 'bs0000000001',
      tenant: 'example',
      pipeline: 'check',
      jobName: 'unit',
      attempt: 1,
      result: 'SUCCESS',
      errorDetail: null,
      logUrl,
      artifacts: [
        { name: 'report', url: `${logUrl}report.html`, metadata: null },
        // docs/logs.md#the-manifest-artifact
        { name: 'Zuul Manifest', url: `${logUrl}zuul-manifest.json`, metadata: { type: 'zuul_manifest' } },
      ],
      data: { version: '1.0' },
      childJobs: null,
      worker: harness.worker.id,
      changedFiles: ['env.sh', 'long.sh', 'run.sh', 'wait.sh', 'where.sh'],
    });
    const events = await harness.repository.resultEvents('example');
    const mine = events.filter((e) => e.payload.buildUuid === 'aa000000000000000000000000000001');
    expect(mine.map((e) => e.eventType)).toEqual(['build-started', 'build-completed']);
    expect(mine[0].payload).toMatchObject({ logUrl, worker: harness.worker.id, startTime: done.startTime });
    const request = await harness.repository.get('aa000000000000000000000000000001');
    expect(request).toMatchObject({ state: 'completed', result: 'SUCCESS', logUrl, worker: harness.worker.id });
    const logDir = path.join(harness.logsDir, 'example/aa/aa000000000000000000000000000001');
    const log = readFileSync(path.join(logDir, 'job-output.txt'), 'utf8');
    expect(log).toContain('| building org/app 1,1\n');
    expect(log).toContain('| Checked out org/app at master');
    expect(readFileSync(path.join(logDir, 'report.html'), 'utf8')).toBe('<p>report</p>\n');
    // The workspace is removed after the build.
    expect(existsSync(path.join(harness.root, 'builds', 'aa000000000000000000000000000001'))).toBe(false);
  });

  it('never hands its own database URL to steps', async () => {
    await harness.enqueue('ab000000000000000000000000000002', { run: [step('env.sh')] });
    expect((await harness.completion('ab000000000000000000000000000002')).result).toBe('SUCCESS');
    const log = readFileSync(
      path.join(harness.logsDir, 'example/ab/ab000000000000000000000000000002/job-output.txt'),
      'utf8',
    );
    expect(log).toContain('| SLUICE_JOB_NAME=unit\n');
    expect(log).not.toContain('DATABASE_URL');
    expect(log).not.toContain('hunter2');
  });

  it('reports MERGE_CONFLICT when the speculative state cannot be prepared', async () => {
    const missing = {
      connection: 'local',
      project: 'org/app',
      branch: 'master',
      ref: 'refs/changes/99/99/1',
      change: 99,
      patchset: '1',
      oldrev: null,
      newrev: null,
      mergeMode: 'merge-resolve' as const,
    };
    await harness.enqueue('ac000000000000000000000000000003', { run: [step('run.sh')] }, { mergerItems: [missing] });
    expect(await harness.completion('ac000000000000000000000000000003')).toMatchObject({
      result: 'MERGE_CONFLICT',
      errorDetail: 'Change ref refs/changes/99/99/1 not found in org/app',
    });
  });

  it('runs at most `concurrency` builds at once', async () => {
    const flag = path.join(harness.root, 'release-concurrency');
    const uuids = [
      'ad000000000000000000000000000004',
      'ad000000000000000000000000000005',
      'ad000000000000000000000000000006',
    ];
    for (const uuid of uuids) {
      await harness.enqueue(uuid, { run: [step('wait.sh')], vars: { flag } });
    }
    await waitUntil(
      async () =>
        (await Promise.all(uuids.map((u) => harness.repository.get(u)))).filter((r) => r?.state === 'running')
          .length === 2,
    );
    expect(harness.worker.activeCount).toBe(2);
    expect(
      (await Promise.all(uuids.map((u) => harness.repository.get(u)))).filter((r) => r?.state === 'requested'),
    ).toHaveLength(1);
    writeFileSync(flag, '');
    const results = await Promise.all(uuids.map((u) => harness.completion(u)));
    expect(results.map((r) => r.result)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS']);
  });

  it('stops a running build when its cancel is requested, with the requested result', async () => {
    await harness.enqueue('ae000000000000000000000000000007', { run: [step('long.sh')] });
    await waitUntil(() => readLog(harness, 'ae000000000000000000000000000007').includes('| long\n'));
    const requestedAt = Date.now();
    expect(await harness.repository.requestCancel('ae000000000000000000000000000007', 'ABORTED', new Date())).toBe(
      'cancel-requested',
    );
    const done = await harness.completion('ae000000000000000000000000000007');
    expect(Date.now() - requestedAt).toBeLessThan(2000);
    expect(done.result).toBe('ABORTED');
  });

  it('stops a build whose request was reclaimed as lost, and its completion writes nothing', async () => {
    const uuid = 'ae000000000000000000000000000017';
    await harness.enqueue(uuid, { run: [step('long.sh')] });
    await waitUntil(() => readLog(harness, uuid).includes('| long\n'));
    // Judged dead (docs/operations.md#lost-work): this worker has no component record, and its
    // request counts as unchanged since before the cut-off.
    const reclaimed = await new LostWorkRepository(harness.database.knex).reclaim(harness.worker.id, {
      heartbeat: null,
      unchangedSince: new Date(Date.now() + 60_000),
      paused: false,
      now: new Date(),
      detail: `Build request lost: executor ${harness.worker.id} stopped heartbeating`,
    });
    expect(reclaimed.map((build) => build.buildUuid)).toEqual([uuid]);
    const stoppedAt = Date.now();
    await waitUntil(() => readLog(harness, uuid).includes('ABORTED'));
    expect(Date.now() - stoppedAt).toBeLessThan(5000);
    await waitUntil(() => harness.worker.activeCount === 0);
    const completions = (await harness.repository.resultEvents('example')).filter(
      (event) => event.payload.buildUuid === uuid && event.eventType === 'build-completed',
    );
    expect(completions.map((event) => [event.payload.result, event.payload.errorDetail])).toEqual([
      ['ABORTED', `Build request lost: executor ${harness.worker.id} stopped heartbeating`],
    ]);
  });

  it('stopping: a build finishing before the deadline completes; one still running is handed back and runs again', async () => {
    const flag = path.join(harness.root, 'release-stop');
    const quick = 'ae000000000000000000000000000027';
    const slow = 'ae000000000000000000000000000028';
    await harness.enqueue(quick, { run: [step('wait.sh')], vars: { flag } });
    await harness.enqueue(slow, { run: [step('long.sh')] });
    await waitUntil(
      () => readLog(harness, quick).includes('| waiting\n') && readLog(harness, slow).includes('| long\n'),
    );
    const stopping = harness.worker.stop({ finishBy: Date.now() + 60_000 });
    writeFileSync(flag, '');
    expect(await harness.completion(quick)).toMatchObject({ result: 'SUCCESS' });
    // The quick build is done; the slow one would run 30 s: a nearer deadline hands it back.
    const successor = harness.spawnWorker();
    try {
      await harness.worker.stop({ finishBy: Date.now() });
      await stopping;
      expect(await harness.repository.get(slow)).toMatchObject({ state: 'requested', worker: null, result: null });
      expect(readLog(harness, slow)).toContain(
        `| Build stopped: executor ${harness.worker.id} is shutting down; the build is handed back and runs again from the start (this attempt is not used up)\n`,
      );
      const events = await harness.repository.resultEvents('example');
      expect(events.filter((e) => e.payload.buildUuid === slow).map((e) => e.eventType)).toEqual(['build-started']);
      // Another worker runs it again from the start, under the same attempt (then it is canceled: 30 s).
      successor.start();
      await waitUntil(async () => (await harness.repository.get(slow))?.worker === successor.id);
      await waitUntil(() => readLog(harness, slow).split('| long\n').length === 3);
      expect(readLog(harness, slow).match(/, attempt 1 of 3\) on executor /g)).toHaveLength(2);
      expect(await harness.repository.requestCancel(slow, 'CANCELED', new Date())).toBe('cancel-requested');
      expect(await harness.completion(slow)).toMatchObject({ result: 'CANCELED', worker: successor.id });
    } finally {
      harness.worker.start();
      await successor.stop();
    }
  });

  it('completes an unclaimed request at once with CANCELED', async () => {
    await harness.worker.stop();
    try {
      await harness.repository.create({ ...paramsFor('af000000000000000000000000000008') });
      expect(
        await harness.repository.requestCancel(
          'af000000000000000000000000000008',
          'ABORTED',
          new Date('2026-01-01T00:00:00Z'),
        ),
      ).toBe('canceled-unclaimed');
      const event = (await harness.repository.resultEvents('example')).find(
        (e) => e.payload.buildUuid === 'af000000000000000000000000000008',
      );
      expect(event).toMatchObject({
        eventType: 'build-completed',
        payload: { result: 'CANCELED', startTime: null, jobName: 'unit', endTime: '2026-01-01T00:00:00.000Z' },
      });
      expect(await harness.repository.requestCancel('af000000000000000000000000000008', 'ABORTED', new Date())).toBe(
        'not-cancelable',
      );
    } finally {
      harness.worker.start();
    }
  });

  it('runs a build on a local node in the node directory and leaves the directory to the launcher', async () => {
    const dir = path.join(harness.root, 'node-n1');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'from-image'), 'seeded by the image\n');
    await harness.enqueue(
      'b1000000000000000000000000000010',
      { run: [step('where.sh')] },
      { nodes: [localNode('n1', dir)] },
    );
    const done = await harness.completion('b1000000000000000000000000000010');
    expect(done.result).toBe('SUCCESS');
    const log = readLog(harness, 'b1000000000000000000000000000010');
    expect(log).toContain(`workspace=${dir} node=${dir} home=${dir}`);
    expect(log).toContain('seeded by the image');
    expect(existsSync(path.join(dir, 'src'))).toBe(true);
    expect(existsSync(path.join(dir, 'from-image'))).toBe(true);
  });

  it('reports NODE_FAILURE when a local node has no directory on this executor', async () => {
    await harness.enqueue(
      'b1000000000000000000000000000011',
      { run: [step('where.sh')] },
      { nodes: [localNode('n2', path.join(harness.root, 'gone'))] },
    );
    const done = await harness.completion('b1000000000000000000000000000011');
    expect(done.result).toBe('NODE_FAILURE');
    expect(done.errorDetail).toBe('Node n2 has no workspace directory on this executor');
  });

  it('reports NODE_FAILURE when the second local node of the build has no directory', async () => {
    const dir = path.join(harness.root, 'node-n3');
    mkdirSync(dir);
    await harness.enqueue(
      'b1000000000000000000000000000012',
      { run: [step('where.sh')] },
      { nodes: [localNode('n3', dir), localNode('n4', path.join(harness.root, 'gone'))] },
    );
    const done = await harness.completion('b1000000000000000000000000000012');
    expect(done.result).toBe('NODE_FAILURE');
    expect(done.errorDetail).toBe('Node n4 has no workspace directory on this executor');
  });

  it('reports ERROR for a request whose parameters are invalid', async () => {
    const params = paramsFor('b0000000000000000000000000000009');
    await harness.repository.create({ ...params, job: { ...params.job, workspaceScheme: 'nested' as never } });
    harness.worker.wake();
    const done = await harness.completion('b0000000000000000000000000000009');
    expect(done.result).toBe('ERROR');
    expect(done.errorDetail).toMatch(/^Invalid build request: job\.workspaceScheme: /);
  });
});

function paramsFor(uuid: string): BuildRequestParams {
  return buildParams({ job: { run: [step('run.sh')] }, params: { buildUuid: uuid } });
}

function readLog(harness: ExecutorHarness, uuid: string): string {
  const file = path.join(harness.logsDir, 'example', uuid.slice(0, 2), uuid, 'job-output.txt');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

async function waitUntil(predicate: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!(await predicate())) {
    if (Date.now() - start > timeoutMs) {
      throw new Error('condition not reached');
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
