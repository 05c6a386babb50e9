/**
 * Paused builds in the executor with real shell steps: a results file with `pause` stops the
 * build after its run phase with its workspace kept; the engine's resume (or cancel) lets an
 * executor holding the workspace finish it, also after the worker that paused it stopped.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BuildJob } from '../../src/model/build-request';
import { step } from '../helpers/build-params';
import { createExecutorHarness, type ExecutorHarness } from '../helpers/executor';
import { expectValid, jobOutputSchema } from '../helpers/log-schemas';

const SCRIPTS = {
  // The "service" the run phase sets up lives in the workspace; the post-run step tears it down.
  'serve.sh': `echo "registry up for $SLUICE_JOB_NAME" > "$SLUICE_WORKSPACE/registry.state"
cat > "$SLUICE_RESULTS_FILE" <<JSON
{"pause": true, "data": {"registry_url": "http://registry.example:5000"}, "artifacts": [{"name": "image", "url": "images/app.tar"}], "child_jobs": ["consumer"]}
JSON
echo serving
`,
  'stop.sh': 'echo "stopping: $(cat "$SLUICE_WORKSPACE/registry.state")"\n',
};

const JOB: Partial<BuildJob> = { run: [step('serve.sh')], postRun: [step('stop.sh')] };

describe('ExecutorWorker: paused builds', () => {
  let harness: ExecutorHarness;

  beforeAll(async () => {
    harness = await createExecutorHarness(SCRIPTS);
    harness.worker.start();
  });

  afterAll(() => harness.close());

  function workspace(uuid: string): string {
    return path.join(harness.root, 'builds', uuid);
  }

  function readLog(uuid: string): string {
    return readFileSync(path.join(harness.logsDir, 'example', uuid.slice(0, 2), uuid, 'job-output.txt'), 'utf8');
  }

  /** Phases and task names of the build's job-output.json (docs/logs.md#job-outputjson). */
  function jobOutputPhases(uuid: string): Array<[string, string[]]> {
    const file = path.join(harness.logsDir, 'example', uuid.slice(0, 2), uuid, 'job-output.json');
    const playbooks = expectValid(jobOutputSchema, JSON.parse(readFileSync(file, 'utf8')), 'job-output.json');
    return playbooks.map((playbook) => [playbook.phase, playbook.plays[0].tasks.map((task) => task.task.name)]);
  }

  async function eventTypes(uuid: string): Promise<string[]> {
    return (await harness.repository.resultEvents('example'))
      .filter((event) => event.payload.buildUuid === uuid)
      .map((event) => event.eventType);
  }

  it('pauses after the run phase with its workspace kept, and runs the post-run steps once resumed', async () => {
    const uuid = 'c1000000000000000000000000000001';
    await harness.enqueue(uuid, JOB);
    const paused = await harness.pause(uuid);
    const logUrl = `http://localhost:9000/logs/example/c1/${uuid}/`;
    expect(paused).toMatchObject({
      buildUuid: uuid,
      jobName: 'unit',
      data: { registry_url: 'http://registry.example:5000' },
      artifacts: [{ name: 'image', url: `${logUrl}images/app.tar`, metadata: null }],
      childJobs: ['consumer'],
      worker: harness.worker.id,
    });
    expect(await harness.repository.get(uuid)).toMatchObject({ state: 'paused', resumeRequested: false });
    expect(await eventTypes(uuid)).toEqual(['build-started', 'build-paused']);
    // A paused build holds no executor slot; its workspace waits for the post-run steps.
    expect(harness.worker.activeCount).toBe(0);
    expect(readFileSync(path.join(workspace(uuid), 'registry.state'), 'utf8')).toBe('registry up for unit\n');
    expect(readLog(uuid)).not.toContain('stopping');

    expect(await harness.repository.requestResume(uuid, new Date())).toBe(true);
    harness.worker.wake();
    const done = await harness.completion(uuid);
    expect(done).toMatchObject({
      result: 'SUCCESS',
      data: { registry_url: 'http://registry.example:5000' },
      worker: harness.worker.id,
      changedFiles: ['serve.sh', 'stop.sh'],
    });
    const started = (await harness.repository.resultEvents('example')).find(
      (event) => event.payload.buildUuid === uuid && event.eventType === 'build-started',
    );
    expect(done.startTime).toBe((started?.payload as { startTime: string }).startTime);
    expect(await eventTypes(uuid)).toEqual(['build-started', 'build-paused', 'build-completed']);
    const log = readLog(uuid);
    expect(log.indexOf('| serving\n')).toBeLessThan(log.indexOf('| Paused: the run steps asked to pause'));
    expect(log.indexOf('| Paused: the run steps asked to pause')).toBeLessThan(
      log.indexOf('| stopping: registry up for unit\n'),
    );
    expect(existsSync(workspace(uuid))).toBe(false);
    // Only paused builds can be resumed.
    expect(await harness.repository.requestResume(uuid, new Date())).toBe(false);
  });

  it('completes a paused build canceled by the engine with the requested result, without its post-run steps', async () => {
    const uuid = 'c2000000000000000000000000000002';
    await harness.enqueue(uuid, JOB);
    await harness.pause(uuid);
    expect(await harness.repository.requestCancel(uuid, 'ABORTED', new Date())).toBe('cancel-requested');
    harness.worker.wake();
    const done = await harness.completion(uuid);
    expect(done.result).toBe('ABORTED');
    const log = readLog(uuid);
    expect(log).toContain('| Build canceled while paused (ABORTED)\n');
    expect(log).not.toContain('stopping');
    expect(existsSync(workspace(uuid))).toBe(false);
  });

  it('keeps a paused build when its worker stops: another worker resumes it from the store', async () => {
    const uuid = 'c3000000000000000000000000000003';
    await harness.enqueue(uuid, JOB);
    await harness.pause(uuid);
    expect(jobOutputPhases(uuid)).toEqual([['run', ['serve.sh (org/app)']]]);
    await harness.worker.stop();
    const successor = harness.spawnWorker();
    try {
      // Stopping aborts running builds, not paused ones.
      expect(await harness.repository.get(uuid)).toMatchObject({ state: 'paused' });
      successor.start();
      expect(await harness.repository.requestResume(uuid, new Date())).toBe(true);
      const done = await harness.completion(uuid);
      expect(done).toMatchObject({ result: 'SUCCESS', worker: successor.id, changedFiles: ['serve.sh', 'stop.sh'] });
      expect(successor.id).not.toBe(harness.worker.id);
      const log = readLog(uuid);
      expect(log).toContain(`| Resumed on executor ${successor.id}: every dependent job has completed\n`);
      expect(log).toContain('| stopping: registry up for unit\n');
      // The structured output goes on too: the other worker appended the post-run phase.
      expect(jobOutputPhases(uuid)).toEqual([
        ['run', ['serve.sh (org/app)']],
        ['post', ['stop.sh (org/app)']],
      ]);
      // The log goes on in one file, every line timestamped.
      for (const line of log.trimEnd().split('\n')) {
        expect(line).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} \| /);
      }
    } finally {
      await successor.stop();
      harness.worker.start();
    }
  });
});
