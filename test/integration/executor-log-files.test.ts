/**
 * The log folder of real builds (docs/logs.md): every build leaves `job-output.txt`,
 * `job-output.json` (one playbook per phase, one task per step, with return codes, output and
 * times), `zuul-info/inventory.yaml` and `zuul-manifest.json` listing them, and completes with
 * the manifest artifact. Each file is validated against the schema written from the reference's
 * format (test/helpers/log-schemas.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { step } from '../helpers/build-params';
import { createExecutorHarness, type ExecutorHarness } from '../helpers/executor';
import {
  expectValid,
  inventorySchema,
  jobOutputSchema,
  manifestPaths,
  manifestSchema,
  type JobOutput,
} from '../helpers/log-schemas';

const SCRIPTS = {
  'setup.sh': 'echo "setting up"\necho "a warning" >&2\n',
  'test.sh': 'echo "running $SLUICE_VAR_greeting"\necho "3 tests failed" >&2\nexit 3\n',
  'never.sh': 'echo "never runs"\n',
  'collect.sh': `mkdir -p "$SLUICE_LOG_DIR/reports"
echo '<p>report</p>' > "$SLUICE_LOG_DIR/reports/index.html"
echo 'compressed' | gzip > "$SLUICE_LOG_DIR/reports/data.json.gz"
echo collected
`,
  'slow.sh': 'echo started\nsleep 30\n',
  'ok.sh': 'echo fine\n',
  'own-manifest.sh': `echo '{"tree": [], "index_links": true}' > "$SLUICE_LOG_DIR/my-manifest.json"
cat > "$SLUICE_RESULTS_FILE" <<JSON
{"artifacts": [{"name": "Mine", "url": "my-manifest.json", "metadata": {"type": "zuul_manifest"}}]}
JSON
`,
};

const LOG_URL = 'http://localhost:9000/logs/example';

describe('ExecutorWorker: the log folder in the reference layout', () => {
  let harness: ExecutorHarness;

  beforeAll(async () => {
    harness = await createExecutorHarness(SCRIPTS);
    harness.worker.start();
  });

  afterAll(() => harness.close());

  function logFile(uuid: string, file: string): string {
    return readFileSync(path.join(harness.logsDir, 'example', uuid.slice(0, 2), uuid, file), 'utf8');
  }

  function jobOutput(uuid: string): JobOutput {
    return expectValid(jobOutputSchema, JSON.parse(logFile(uuid, 'job-output.json')), 'job-output.json');
  }

  it('writes the phases, the inventory and the manifest of a failing build, and publishes the manifest', async () => {
    const uuid = 'f1000000000000000000000000000001';
    await harness.enqueue(uuid, {
      preRun: [step('setup.sh')],
      run: [step('test.sh'), step('never.sh')],
      postRun: [step('collect.sh')],
      vars: { greeting: 'hello', nested: { level: 2 } },
    });
    const done = await harness.completion(uuid);
    expect(done.result).toBe('FAILURE');
    const logUrl = `${LOG_URL}/f1/${uuid}/`;
    expect(done.artifacts).toEqual([
      { name: 'Zuul Manifest', url: `${logUrl}zuul-manifest.json`, metadata: { type: 'zuul_manifest' } },
    ]);

    const playbooks = jobOutput(uuid);
    expect(playbooks.map((p) => [p.phase, p.playbook, p.index, p.branch])).toEqual([
      ['pre', 'unit/pre-run', '0', 'master'],
      ['run', 'unit/run', '0', 'master'],
      ['post', 'unit/post-run', '0', 'master'],
    ]);
    // One play on the host the steps ran on (no nodes: the executor, `localhost`).
    expect(playbooks.every((p) => p.plays.length === 1 && p.plays[0].play.name === 'localhost')).toBe(true);
    const [pre, run, post] = playbooks;
    expect(pre.plays[0].tasks[0].hosts.localhost).toMatchObject({
      action: 'command',
      cmd: 'setup.sh',
      failed: false,
      rc: 0,
      msg: '',
      stdout: 'setting up',
      stdout_lines: ['setting up'],
      stderr_lines: ['a warning'],
    });
    // The failed step is the phase's last task: the next run step never ran.
    expect(run.plays[0].tasks.map((task) => task.task.name)).toEqual(['test.sh (org/app)']);
    expect(run.plays[0].tasks[0].hosts.localhost).toMatchObject({
      failed: true,
      rc: 3,
      msg: 'non-zero return code',
      stdout_lines: ['running hello'],
      stderr: '3 tests failed',
    });
    expect(run.stats).toEqual({
      localhost: { changed: 0, failures: 1, ignored: 0, ok: 0, rescued: 0, skipped: 0, unreachable: 0 },
    });
    expect(post.stats.localhost).toMatchObject({ ok: 1, changed: 1, failures: 0 });
    const task = run.plays[0].tasks[0].task;
    expect(Date.parse(task.duration.end)).toBeGreaterThanOrEqual(Date.parse(task.duration.start));
    expect(Date.parse(pre.plays[0].play.duration.start)).toBeLessThanOrEqual(Date.parse(task.duration.start));

    const inventory = expectValid(inventorySchema, parse(logFile(uuid, 'zuul-info/inventory.yaml')), 'inventory.yaml');
    expect(inventory.all.vars).toMatchObject({ greeting: 'hello', nested: { level: 2 } });
    expect(inventory.all.vars.zuul).toMatchObject({
      build: uuid,
      buildset: 'bs0000000001',
      tenant: 'example',
      pipeline: 'check',
      job: 'unit',
      project: { name: 'org/app', short_name: 'app', src_dir: 'src/git.example.com/org/app' },
      branch: 'master',
      ref: 'refs/changes/01/1/1',
      change: '1',
      patchset: '1',
      attempts: 1,
      max_attempts: 3,
      log_url: logUrl,
    });

    const manifest = expectValid(manifestSchema, JSON.parse(logFile(uuid, 'zuul-manifest.json')), 'manifest');
    expect(manifestPaths(manifest.tree)).toEqual([
      'reports/data.json.gz',
      'reports/index.html',
      'zuul-info/inventory.yaml',
      'job-output.json',
      'job-output.txt',
    ]);
    const reports = manifest.tree[0];
    expect('children' in reports && reports.children[0]).toMatchObject({
      name: 'data.json.gz',
      mimetype: 'application/json',
      encoding: 'gzip',
    });
    const outputEntry = manifest.tree.find((node) => node.name === 'job-output.txt');
    expect(outputEntry).toMatchObject({
      mimetype: 'text/plain',
      size: Buffer.byteLength(logFile(uuid, 'job-output.txt')),
    });
  });

  it('records a timed-out step and leaves an empty structured output when no step ran', async () => {
    const slow = 'f2000000000000000000000000000002';
    await harness.enqueue(slow, { run: [step('slow.sh')], timeout: 1 });
    expect((await harness.completion(slow)).result).toBe('TIMED_OUT');
    const [run] = jobOutput(slow);
    expect(run.plays[0].tasks[0].hosts.localhost).toMatchObject({
      failed: true,
      rc: null,
      msg: 'timed out; its process group was killed',
      stdout_lines: ['started'],
    });

    const broken = 'f3000000000000000000000000000003';
    await harness.enqueue(broken, { run: [step('missing.sh')] });
    const done = await harness.completion(broken);
    expect(done.result).toBe('ERROR');
    expect(jobOutput(broken)).toEqual([]);
    expectValid(inventorySchema, parse(logFile(broken, 'zuul-info/inventory.yaml')), 'inventory.yaml');
    const manifest = expectValid(manifestSchema, JSON.parse(logFile(broken, 'zuul-manifest.json')), 'manifest');
    expect(manifestPaths(manifest.tree)).toEqual(['zuul-info/inventory.yaml', 'job-output.json', 'job-output.txt']);
    expect(done.artifacts.map((artifact) => artifact.metadata)).toEqual([{ type: 'zuul_manifest' }]);
  });

  it('adds no manifest artifact when the job returned its own', async () => {
    const uuid = 'f4000000000000000000000000000004';
    await harness.enqueue(uuid, { run: [step('own-manifest.sh')] });
    const done = await harness.completion(uuid);
    expect(done.artifacts).toEqual([
      { name: 'Mine', url: `${LOG_URL}/f4/${uuid}/my-manifest.json`, metadata: { type: 'zuul_manifest' } },
    ]);
    // Sluice's manifest is still written.
    expect(manifestPaths(JSON.parse(logFile(uuid, 'zuul-manifest.json')).tree as [])).toContain('my-manifest.json');
  });
});
