import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BuildJob, BuildRequestParams } from '../../../src/model/build-request';
import { BuildLog } from '../../../src/executor/build-log';
import type { WorkspaceProject } from '../../../src/executor/merger';
import { runBuild, type RunOutcome } from '../../../src/executor/runner';
import { allowedHostEnvironment } from '../../../src/executor/step-environment';
import type { TimerClock } from '../../../src/engine/ports/clock';
import { buildParams, step } from '../../helpers/build-params';
import { FakeTimerClock } from '../../helpers/fake-timer-clock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) {
      throw new Error('condition not reached');
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('runBuild', () => {
  let root: string;
  let counter = 0;

  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-runner-'));
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  interface Setup {
    workspace: string;
    checkout: string;
    logFile: string;
    logDir: string;
    log: BuildLog;
    run(
      job: Partial<BuildJob>,
      extra?: {
        params?: Partial<BuildRequestParams>;
        signal?: AbortSignal;
        cancelResult?: () => 'CANCELED' | 'ABORTED';
        hostEnv?: Record<string, string>;
        resume?: boolean;
        /** The clock of the job's timeouts (a FakeTimerClock: the test moves it on). */
        timers?: TimerClock;
      },
    ): Promise<RunOutcome>;
  }

  /** A workspace with the given scripts in the checkout of org/app. */
  function setup(scripts: Record<string, string>): Setup {
    const workspace = path.join(root, `build-${counter++}`);
    const checkout = path.join(workspace, 'src', 'git.example.com', 'org', 'app');
    mkdirSync(checkout, { recursive: true });
    for (const [file, content] of Object.entries(scripts)) {
      const full = path.join(checkout, file);
      mkdirSync(path.dirname(full), { recursive: true });
      writeFileSync(full, content);
      if (content.startsWith('#!')) {
        chmodSync(full, 0o755);
      }
    }
    const logDir = path.join(workspace, 'logs');
    const logFile = path.join(logDir, 'job-output.txt');
    const log = new BuildLog(logFile);
    const projects: WorkspaceProject[] = [
      {
        connection: 'local',
        project: 'org/app',
        path: checkout,
        relativePath: 'git.example.com/org/app',
        checkout: 'master',
        head: 'x',
        speculativeBranches: {},
      },
    ];
    return {
      workspace,
      checkout,
      logFile,
      logDir,
      log,
      run: async (job, extra = {}) => {
        // A resumed build appends to the log its first run finished.
        const runLog = extra.resume === true ? new BuildLog(logFile) : log;
        const outcome = await runBuild({
          params: buildParams({ job, params: extra.params }),
          workspaceRoot: workspace,
          projects,
          log: runLog,
          logDir,
          logUrl: 'https://logs.example.com/example/ab/ab12cd34ef5600000000000000000001/',
          hostEnv: extra.hostEnv ?? allowedHostEnvironment({ PATH: process.env.PATH }),
          signal: extra.signal,
          cancelResult: extra.cancelResult,
          killGraceMs: 200,
          resume: extra.resume,
          timers: extra.timers,
        });
        runLog.finish();
        return outcome;
      },
    };
  }

  it('succeeds when every step exits 0, running non-executable scripts with bash in the checkout', async () => {
    const s = setup({
      'pre.sh': 'echo pre in $(pwd)\n',
      'run.sh': '#!/bin/sh\necho hello from run\necho to stderr >&2\n',
      'post.sh': 'echo post\n',
    });
    const outcome = await s.run({ preRun: [step('pre.sh')], run: [step('run.sh')], postRun: [step('post.sh')] });
    expect(outcome).toEqual({
      result: 'SUCCESS',
      errorDetail: null,
      results: { artifacts: [], data: {}, childJobs: null, pause: false, warnings: [] },
      warnings: [],
    });
    const log = readFileSync(s.logFile, 'utf8');
    expect(log).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} \| === pre-run: pre\.sh \(org\/app\) ===$/m);
    expect(log).toContain(`| pre in ${s.checkout}\n`);
    expect(log).toContain('| hello from run\n');
    expect(log).toContain('| to stderr\n');
    expect(log).toContain('| post\n');
    expect(log).toContain('| Build result: SUCCESS\n');
    for (const line of log.trimEnd().split('\n')) {
      expect(line).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} \| /);
    }
  });

  it('gives FAILURE when a run step exits non-zero, and skips the later run steps', async () => {
    const s = setup({ 'fail.sh': 'echo failing; exit 3\n', 'never.sh': 'echo never\n', 'post.sh': 'echo post ran\n' });
    const outcome = await s.run({ run: [step('fail.sh'), step('never.sh')], postRun: [step('post.sh')] });
    expect(outcome.result).toBe('FAILURE');
    const log = readFileSync(s.logFile, 'utf8');
    expect(log).toContain('=== run: fail.sh failed (exit code 3)');
    expect(log).not.toContain('| never\n');
    expect(log).toContain('| post ran\n');
  });

  it('gives TIMED_OUT and kills the step together with its children', async () => {
    const s = setup({ 'slow.sh': 'sleep 30 &\necho $! > "$SLUICE_WORKSPACE/child.pid"\nwait\n' });
    // The timeout runs on a clock the test moves on once the step has started its child.
    const timers = new FakeTimerClock();
    const running = s.run({ timeout: 1, run: [step('slow.sh')] }, { timers });
    const pidFile = path.join(s.workspace, 'child.pid');
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 30_000);
    const childPid = Number(readFileSync(pidFile, 'utf8'));
    expect(childPid).toBeGreaterThan(0);
    expect(timers.pending).toEqual([1000]);
    const movedOn = Date.now();
    await timers.advance(1000);
    const outcome = await running;
    expect(outcome.result).toBe('TIMED_OUT');
    // Killed, not waited for (its child sleeps 30 s).
    expect(Date.now() - movedOn).toBeLessThan(5000);
    await waitFor(() => !isAlive(childPid));
    expect(readFileSync(s.logFile, 'utf8')).toContain('timed out after');
  });

  it('retries a pre-run failure while attempts remain, then gives RETRY_LIMIT', async () => {
    const s1 = setup({ 'pre.sh': 'exit 1\n', 'run.sh': 'echo should not run\n' });
    const first = await s1.run(
      { attempts: 2, preRun: [step('pre.sh')], run: [step('run.sh')] },
      { params: { attempt: 1 } },
    );
    expect(first).toMatchObject({
      result: 'RETRY',
      errorDetail: 'pre-run step pre.sh (org/app) failed with exit code 1',
    });
    expect(readFileSync(s1.logFile, 'utf8')).not.toContain('should not run');
    const s2 = setup({ 'pre.sh': 'exit 1\n', 'run.sh': 'echo should not run\n' });
    const last = await s2.run(
      { attempts: 2, preRun: [step('pre.sh')], run: [step('run.sh')] },
      { params: { attempt: 2 } },
    );
    expect(last.result).toBe('RETRY_LIMIT');
  });

  it('gives POST_FAILURE when a post-run step fails, unless a pre-run failure or a timeout decided the result', async () => {
    const ok = setup({ 'run.sh': 'true\n', 'post.sh': 'exit 2\n' });
    const post = await ok.run({ run: [step('run.sh')], postRun: [step('post.sh')] });
    expect(post).toMatchObject({
      result: 'POST_FAILURE',
      errorDetail: 'post-run step post.sh (org/app) failed with exit code 2',
    });
    // As in the reference, a failed post-run overrides a failed run.
    const bad = setup({ 'run.sh': 'false\n', 'post.sh': 'exit 2\n' });
    expect((await bad.run({ run: [step('run.sh')], postRun: [step('post.sh')] })).result).toBe('POST_FAILURE');
    const pre = setup({ 'pre.sh': 'false\n', 'run.sh': 'true\n', 'post.sh': 'exit 2\n' });
    const retried = await pre.run({ preRun: [step('pre.sh')], run: [step('run.sh')], postRun: [step('post.sh')] });
    expect(retried).toMatchObject({
      result: 'RETRY',
      errorDetail: 'pre-run step pre.sh (org/app) failed with exit code 1',
    });
    const slow = setup({ 'run.sh': 'sleep 30\n', 'post.sh': 'exit 2\n' });
    const timers = new FakeTimerClock();
    const timingOut = slow.run({ timeout: 0.5, run: [step('run.sh')], postRun: [step('post.sh')] }, { timers });
    await waitFor(() => timers.pending.includes(500));
    await timers.advance(500);
    expect((await timingOut).result).toBe('TIMED_OUT');
  });

  it('gives ERROR with a detail when a script is missing, before running anything', async () => {
    const s = setup({ 'run.sh': 'touch "$SLUICE_WORKSPACE/ran"\n' });
    const outcome = await s.run({ run: [step('run.sh')], postRun: [step('missing/post.sh')] });
    expect(outcome).toMatchObject({
      result: 'ERROR',
      errorDetail: 'Script missing/post.sh not found in project org/app (post-run)',
    });
    expect(existsSync(path.join(s.workspace, 'ran'))).toBe(false);
  });

  it('refuses a script path that leaves the checkout', async () => {
    const s = setup({ 'run.sh': 'true\n' });
    const outcome = await s.run({ run: [step('../../../../etc/passwd')] });
    expect(outcome).toMatchObject({
      result: 'ERROR',
      errorDetail: "Script path ../../../../etc/passwd of project org/app leaves the project's checkout",
    });
  });

  it('returns artifacts, data for child jobs and child_jobs from the results file', async () => {
    const s = setup({
      'run.sh': `cat > "$SLUICE_RESULTS_FILE" <<'JSON'
{"artifacts": [{"name": "docs", "url": "docs/index.html", "metadata": {"type": "docs"}}, {"name": "pkg", "url": "https://pkg.example.com/p.tgz"}],
 "data": {"image_tag": "1.2.3", "nested": {"a": 1}}, "child_jobs": ["deploy"], "warnings": ["be careful"]}
JSON
`,
    });
    const outcome = await s.run({ run: [step('run.sh')] });
    expect(outcome).toEqual({
      result: 'SUCCESS',
      errorDetail: null,
      results: {
        artifacts: [
          {
            name: 'docs',
            url: 'https://logs.example.com/example/ab/ab12cd34ef5600000000000000000001/docs/index.html',
            metadata: { type: 'docs' },
          },
          { name: 'pkg', url: 'https://pkg.example.com/p.tgz', metadata: null },
        ],
        data: { image_tag: '1.2.3', nested: { a: 1 } },
        childJobs: ['deploy'],
        pause: false,
        warnings: ['be careful'],
      },
      warnings: ['be careful'],
    });
  });

  it('pauses after a successful run phase that asks to, and runs only the post-run steps when resumed', async () => {
    const s = setup({
      'pre.sh': 'echo pre >> "$SLUICE_WORKSPACE/order"\n',
      'run.sh':
        'echo run >> "$SLUICE_WORKSPACE/order"\necho \'{"pause": true, "data": {"url": "http://registry"}}\' > "$SLUICE_RESULTS_FILE"\n',
      // The results file of the run phase is still there for the post-run steps.
      'post.sh': 'echo "post $(cat "$SLUICE_RESULTS_FILE")" >> "$SLUICE_WORKSPACE/order"\n',
    });
    const job = { preRun: [step('pre.sh')], run: [step('run.sh')], postRun: [step('post.sh')] };
    const paused = await s.run(job);
    expect(paused).toEqual({
      result: 'SUCCESS',
      errorDetail: null,
      paused: true,
      results: { artifacts: [], data: { url: 'http://registry' }, childJobs: null, pause: true, warnings: [] },
      warnings: [],
    });
    expect(readFileSync(path.join(s.workspace, 'order'), 'utf8')).toBe('pre\nrun\n');
    const linesWhenPaused = readFileSync(s.logFile, 'utf8').trimEnd().split('\n').length;

    const resumed = await s.run(job, { resume: true });
    expect(resumed).toEqual({
      result: 'SUCCESS',
      errorDetail: null,
      results: { artifacts: [], data: { url: 'http://registry' }, childJobs: null, pause: true, warnings: [] },
      warnings: [],
    });
    expect(readFileSync(path.join(s.workspace, 'order'), 'utf8')).toBe(
      'pre\nrun\npost {"pause": true, "data": {"url": "http://registry"}}\n',
    );
    const log = readFileSync(s.logFile, 'utf8');
    expect(log).toContain('| Paused: the run steps asked to pause');
    expect(log.trimEnd().split('\n').length).toBeGreaterThan(linesWhenPaused);
    expect(log).toContain('| Build result: SUCCESS\n');
  });

  it('does not pause when the run phase failed', async () => {
    const s = setup({
      'run.sh': 'echo \'{"pause": true}\' > "$SLUICE_RESULTS_FILE"\nexit 1\n',
      'post.sh': 'echo post ran\n',
    });
    const outcome = await s.run({ run: [step('run.sh')], postRun: [step('post.sh')] });
    expect(outcome.result).toBe('FAILURE');
    expect(outcome.paused).toBeUndefined();
    expect(readFileSync(s.logFile, 'utf8')).toContain('| post ran\n');
  });

  it('reports an invalid results file in error_detail without crashing', async () => {
    const s = setup({ 'run.sh': 'echo "{not json" > "$SLUICE_RESULTS_FILE"\n' });
    const outcome = await s.run({ run: [step('run.sh')] });
    expect(outcome.result).toBe('SUCCESS');
    expect(outcome.errorDetail).toMatch(/^Invalid results file: /);
    const wrongShape = setup({ 'run.sh': 'echo \'{"artifacts": [{"name": "x"}]}\' > "$SLUICE_RESULTS_FILE"\n' });
    expect((await wrongShape.run({ run: [step('run.sh')] })).errorDetail).toBe(
      'Invalid results file: artifacts.0.url: Invalid input: expected string, received undefined',
    );
  });

  it('exports job variables, parent data and the documented SLUICE_* variables, and nothing of its own environment', async () => {
    const s = setup({
      'run.sh':
        'env | sort > "$SLUICE_WORKSPACE/env.txt"\ncat "$SLUICE_VARS_FILE" > "$SLUICE_WORKSPACE/vars.json"\ncat "$SLUICE_INPUTS_FILE" > "$SLUICE_WORKSPACE/inputs.json"\n',
    });
    const outcome = await s.run(
      {
        run: [step('run.sh')],
        vars: { greeting: 'hi', db: { host: 'db1', port: 5432, 'bad-key': 1 }, list: ['a', 'b'] },
        extraVars: { greeting: 'hello' },
      },
      {
        params: {
          parentData: { image_tag: '1.2.3' },
          artifacts: [
            {
              name: 'docs',
              url: 'https://x/docs',
              metadata: null,
              project: 'org/app',
              change: 1,
              patchset: '1',
              job: 'build-docs',
            },
          ],
        },
        hostEnv: {
          ...allowedHostEnvironment({
            PATH: process.env.PATH,
            DATABASE_URL: 'postgres://secret@db/x',
            SLUICE_SECRET: 'x',
          } as Record<string, string>),
        },
      },
    );
    expect(outcome.result).toBe('SUCCESS');
    expect(outcome.warnings).toEqual([
      'Variables not exported to the environment (key is not [A-Za-z0-9_]): db.bad-key; they are in the vars file',
    ]);
    const env = Object.fromEntries(
      readFileSync(path.join(s.workspace, 'env.txt'), 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SLUICE_SECRET).toBeUndefined();
    expect(env.HOME).toBe(s.workspace);
    expect(env).toMatchObject({
      SLUICE_JOB_NAME: 'unit',
      SLUICE_BUILD_UUID: 'ab12cd34ef5600000000000000000001',
      SLUICE_TENANT: 'example',
      SLUICE_PIPELINE: 'check',
      SLUICE_PROJECT: 'org/app',
      SLUICE_BRANCH: 'master',
      SLUICE_CHANGE: '1',
      SLUICE_PATCHSET: '1',
      SLUICE_REF: 'refs/changes/01/1/1',
      SLUICE_ATTEMPT: '1',
      SLUICE_STEP: 'run',
      SLUICE_PROJECT_DIR: s.checkout,
      SLUICE_LOG_DIR: s.logDir,
      SLUICE_VAR_greeting: 'hello',
      SLUICE_VAR_image_tag: '1.2.3',
      SLUICE_VAR_db__host: 'db1',
      SLUICE_VAR_db__port: '5432',
      SLUICE_VAR_list__0: 'a',
      SLUICE_VAR_list__1: 'b',
      SLUICE_VAR_list: '["a","b"]',
    });
    expect(JSON.parse(readFileSync(path.join(s.workspace, 'vars.json'), 'utf8'))).toEqual({
      greeting: 'hello',
      db: { host: 'db1', port: 5432, 'bad-key': 1 },
      list: ['a', 'b'],
      image_tag: '1.2.3',
    });
    expect(JSON.parse(readFileSync(path.join(s.workspace, 'inputs.json'), 'utf8'))).toMatchObject({
      artifacts: [{ name: 'docs', job: 'build-docs' }],
      parent_data: { image_tag: '1.2.3' },
    });
  });

  it('gives ERROR for an invalid variable name', async () => {
    const s = setup({ 'run.sh': 'true\n' });
    const outcome = await s.run({ run: [step('run.sh')], vars: { 'not-valid': 1 } });
    expect(outcome).toMatchObject({
      result: 'ERROR',
      errorDetail: 'Invalid variable name "not-valid": names must match [A-Za-z_][A-Za-z0-9_]*',
    });
  });

  it('stops a long step within 2 seconds on cancel, with the result the caller chooses, and streams output live', async () => {
    const s = setup({
      'long.sh': 'echo started\nsleep 30 &\necho $! > "$SLUICE_WORKSPACE/child.pid"\nwait\n',
      'post.sh': 'touch "$SLUICE_WORKSPACE/post-ran"\n',
    });
    const controller = new AbortController();
    const running = s.run(
      { run: [step('long.sh')], postRun: [step('post.sh')] },
      { signal: controller.signal, cancelResult: () => 'CANCELED' },
    );
    // Follow the console until the step has started, then cancel.
    for await (const batch of s.log.lines(1)) {
      if (batch.some((line) => line.text.endsWith('| started'))) {
        break;
      }
    }
    await waitFor(
      () =>
        existsSync(path.join(s.workspace, 'child.pid')) &&
        readFileSync(path.join(s.workspace, 'child.pid'), 'utf8').trim() !== '',
    );
    const cancelAt = Date.now();
    controller.abort();
    const outcome = await running;
    expect(Date.now() - cancelAt).toBeLessThan(2000);
    expect(outcome.result).toBe('CANCELED');
    const childPid = Number(readFileSync(path.join(s.workspace, 'child.pid'), 'utf8'));
    await waitFor(() => !isAlive(childPid));
    expect(existsSync(path.join(s.workspace, 'post-ran'))).toBe(false);
  });
});
