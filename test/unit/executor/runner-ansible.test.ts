/**
 * Playbooks run for real with ansible-playbook (docs/executor.md#ansible-on-the-executor):
 * phases and results as the reference maps them, the console callback, job-output.json,
 * zuul_return, roles, secrets and the sandbox of untrusted playbooks. Playbooks are small and
 * run on the executor (connection local) so the file stays quick.
 */
import { randomInt } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AnsibleToolchain } from '../../../src/executor/ansible/toolchain';
import type { RunOutcome } from '../../../src/executor/runner';
import type { BuildStep } from '../../../src/model/build-request';
import { AnsibleHarness, closedPort, localPlay, LOG_URL, playbook, type Setup } from '../../helpers/ansible-harness';
import { buildParams } from '../../helpers/build-params';
import { FakeTimerClock } from '../../helpers/fake-timer-clock';

describe('runBuild with playbooks', () => {
  const harness = new AnsibleHarness();
  let root: string;
  const setup = (files: Record<string, string>, roleFiles?: Record<string, string>): Setup =>
    harness.setup(files, roleFiles);

  beforeAll(async () => {
    await harness.start();
    root = harness.root;
  });

  afterAll(() => harness.stop());

  it('runs pre-run, run and post-run playbooks, streams the console and writes job-output.json', async () => {
    const s = setup({
      'playbooks/pre.yaml': localPlay('    - name: Prepare\n      command: echo preparing\n'),
      'playbooks/run.yaml': localPlay(
        '    - name: Test\n      shell: "echo testing {{ zuul.project.name }} in $(pwd); echo to-stderr >&2"\n' +
          '    - name: Say\n      debug:\n        msg: "job {{ zuul.job }} build {{ zuul.build }}"\n',
      ),
      'playbooks/post.yaml': localPlay('    - name: Collect\n      command: echo "success={{ zuul_success }}"\n'),
    });
    const outcome = await s.run({
      preRun: [playbook('playbooks/pre.yaml', { trusted: true })],
      run: [playbook('playbooks/run.yaml')],
      postRun: [playbook('playbooks/post.yaml')],
    });
    expect(outcome).toMatchObject({ result: 'SUCCESS', errorDetail: null });
    s.log.finish();
    const console = readFileSync(s.logFile, 'utf8');
    expect(console).toContain('PRE-RUN START: [trusted : git.example.com/org/app/playbooks/pre.yaml@master]');
    expect(console).toContain('RUN START: [untrusted : git.example.com/org/app/playbooks/run.yaml@master]');
    expect(console).toContain('TASK [Test]');
    expect(console).toMatch(new RegExp(`worker \\| testing org/app in ${s.workspace}\n`));
    expect(console).toContain('worker | to-stderr');
    expect(console).toContain('worker | job unit build ab12cd34ef5600000000000000000001');
    expect(console).toContain('worker | success=True');
    expect(console).toContain('POST-RUN END RESULT_NORMAL');
    const playbooks = s.jobOutput();
    expect(playbooks.map((p) => [p.phase, p.playbook, p.index, p.trusted, p.branch])).toEqual([
      ['pre', 'git.example.com/org/app/playbooks/pre.yaml', '0', true, 'master'],
      ['run', 'git.example.com/org/app/playbooks/run.yaml', '0', false, 'master'],
      ['post', 'git.example.com/org/app/playbooks/post.yaml', '0', false, 'master'],
    ]);
    const run = playbooks[1];
    expect(run.plays[0].play.name).toBe('all');
    expect(run.plays[0].tasks.map((t) => t.task.name)).toEqual(['Test', 'Say']);
    expect(run.plays[0].tasks[0].hosts.worker).toMatchObject({
      action: 'shell',
      rc: 0,
      changed: true,
      stdout_lines: [`testing org/app in ${s.workspace}`, 'to-stderr'],
    });
    expect(run.stats.worker).toMatchObject({ ok: 2, changed: 1, failures: 0 });
  });

  it('gives FAILURE for a failing run task, with the task in job-output.json, and still runs post-run', async () => {
    const s = setup({
      'run.yaml': localPlay(
        '    - name: Unit tests\n      shell: "echo 3 tests failed; exit 3"\n    - name: Never\n      command: "true"\n',
      ),
      'post.yaml': localPlay('    - command: echo collecting\n'),
    });
    const outcome = await s.run({ run: [playbook('run.yaml')], postRun: [playbook('post.yaml')] });
    expect(outcome.result).toBe('FAILURE');
    const [run, post] = s.jobOutput();
    expect(run.plays[0].tasks.map((t) => t.task.name)).toEqual(['Unit tests']);
    expect(run.plays[0].tasks[0].hosts.worker).toMatchObject({
      failed: true,
      rc: 3,
      msg: 'non-zero return code',
      stdout_lines: ['3 tests failed'],
    });
    expect(run.stats.worker).toMatchObject({ failures: 1 });
    expect(post.phase).toBe('post');
    s.log.finish();
    expect(readFileSync(s.logFile, 'utf8')).toContain('worker | FAILED: rc=3');
  });

  it('retries a pre-run failure, unless the playbooks returned zuul.retry false', async () => {
    const s = setup({
      'pre.yaml': localPlay('    - command: "false"\n'),
      'no-retry.yaml': localPlay('    - zuul_return:\n        data: {zuul: {retry: false}}\n    - command: "false"\n'),
      'run.yaml': localPlay('    - command: echo never\n'),
    });
    const retried = await s.run({ preRun: [playbook('pre.yaml')], run: [playbook('run.yaml')] });
    expect(retried).toMatchObject({
      result: 'RETRY',
      errorDetail: 'pre-run playbook pre.yaml (org/app) failed with exit code 2',
    });
    const last = await s.run(
      { attempts: 2, preRun: [playbook('pre.yaml')], run: [playbook('run.yaml')] },
      { params: { attempt: 2 } },
    );
    expect(last.result).toBe('RETRY_LIMIT');
    const failed = await s.run({ preRun: [playbook('no-retry.yaml')], run: [playbook('run.yaml')] });
    expect(failed.result).toBe('FAILURE');
  });

  it('gives TIMED_OUT when a run playbook outlives the job timeout, and kills what it started', async () => {
    // Commands still running anywhere with this unique argument (the sandbox's PIDs are its own).
    const sleepers = (seconds: string): string[] =>
      readdirSync('/proc').filter((pid) => {
        try {
          return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8') === `sleep\0${seconds}\0`;
        } catch {
          return false;
        }
      });
    // Polled: a process starts (`exec`) just after its line, and a killed one may linger a
    // moment on a loaded machine; one left running sleeps for days.
    const sleeping = async (seconds: string, count: number): Promise<void> => {
      const deadline = Date.now() + 10_000;
      while (sleepers(seconds).length !== count) {
        if (Date.now() > deadline) {
          throw new Error(`sleep ${seconds}: ${sleepers(seconds).length} processes, not ${count}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    // Durations of this run only: a sleeper another run left behind (killed midway) is not taken for ours.
    const [trustedSleep, untrustedSleep] = [1, 2].map((n) => String(100_000 + randomInt(400_000) * 2 + n));
    const s = setup({
      'trusted.yaml': localPlay(`    - shell: echo started ${trustedSleep}; exec sleep ${trustedSleep}\n`),
      'untrusted.yaml': localPlay(`    - shell: echo started ${untrustedSleep}; exec sleep ${untrustedSleep}\n`),
    });
    // The job's timeout runs on a clock the test moves on once the command has started (its
    // output streamed): no real time is waited, however long Ansible takes to get there.
    const timeOut = async (step: BuildStep, seconds: string): Promise<RunOutcome> => {
      const timers = new FakeTimerClock();
      const running = s.run({ timeout: 5, run: [step] }, { timers });
      await s.untilLogged(`worker | started ${seconds}`, running);
      await sleeping(seconds, 1);
      expect(timers.pending).toEqual([5000]);
      await timers.advance(4999);
      expect(sleepers(seconds)).toHaveLength(1);
      await timers.advance(1);
      return running;
    };
    expect((await timeOut(playbook('trusted.yaml', { trusted: true }), trustedSleep)).result).toBe('TIMED_OUT');
    await sleeping(trustedSleep, 0);
    expect((await timeOut(playbook('untrusted.yaml'), untrustedSleep)).result).toBe('TIMED_OUT');
    await sleeping(untrustedSleep, 0);
  });

  it('retries the build when a node is unreachable, in run and in post-run', async () => {
    const port = await closedPort();
    const key = path.join(root, 'node_key');
    if (!existsSync(key)) {
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
    }
    const s = setup({
      'run.yaml': localPlay('    - command: "true"\n'),
      'local.yaml': '- hosts: localhost\n  gather_facts: false\n  tasks:\n    - command: "true"\n',
      'post.yaml': localPlay('    - command: "true"\n'),
    });
    const node = {
      id: 'n1',
      label: 'lab',
      connectionType: 'ssh' as const,
      host: '127.0.0.1',
      port,
      username: 'ci',
      path: null,
      hostKeys: [],
    };
    const params = {
      nodes: [node],
      nodeset: { name: '', nodes: [{ name: 'peer', aliases: [], label: 'lab' }], groups: [] },
    };
    const outcome = await s.run({ run: [playbook('run.yaml')] }, { params, sshKey: key });
    expect(outcome).toMatchObject({ result: 'RETRY', errorDetail: 'Host unreachable' });
    const host = s.jobOutput()[0].plays[0].tasks[0].hosts.peer;
    expect(host).toMatchObject({ unreachable: true });
    const post = await s.run(
      { run: [playbook('local.yaml')], postRun: [playbook('post.yaml')] },
      { params, sshKey: key },
    );
    expect(post).toMatchObject({ result: 'RETRY', errorDetail: 'Host unreachable' });
  });

  it('passes zuul_return data, artifacts and child_jobs on, and keeps the data whole', async () => {
    const s = setup({
      'run.yaml': localPlay(
        '    - zuul_return:\n        data:\n          image_tag: "1.2.3"\n          zuul:\n' +
          '            artifacts: [{name: docs, url: docs/index.html, metadata: {type: docs_site}}]\n' +
          '            child_jobs: [deploy]\n            warnings: [cold cache]\n' +
          '            file_comments: {README: [{line: 1, message: typo}]}\n' +
          '    - zuul_return:\n        data:\n          zuul:\n            artifacts: [{name: pkg, url: "https://pkg.example.com/a.tgz"}]\n',
      ),
    });
    const outcome = await s.run({ run: [playbook('run.yaml')] });
    expect(outcome.result).toBe('SUCCESS');
    expect(outcome.results.artifacts).toEqual([
      { name: 'docs', url: `${LOG_URL}docs/index.html`, metadata: { type: 'docs_site' } },
      { name: 'pkg', url: 'https://pkg.example.com/a.tgz', metadata: null },
    ]);
    expect(outcome.results.childJobs).toEqual(['deploy']);
    expect(outcome.results.data).toMatchObject({
      image_tag: '1.2.3',
      zuul: { child_jobs: ['deploy'], file_comments: { README: [{ line: 1, message: 'typo' }] } },
    });
    expect(outcome.warnings).toContain('cold cache');
  });

  it('gives secrets to the playbook they are bound to as variables, masked in the console and job-output.json', async () => {
    const s = setup({
      'run.yaml': localPlay(
        '    - command: "echo token={{ creds.token }}"\n    - debug: {msg: "{{ creds.token }}"}\n' +
          '    - command: "echo hidden {{ creds.token }}"\n      no_log: true\n',
      ),
      'post.yaml': localPlay('    - debug: {msg: "creds defined: {{ creds is defined }}"}\n'),
    });
    const outcome = await s.run(
      {
        run: [playbook('run.yaml', { secrets: [{ alias: 'creds', secret: 0 }] })],
        postRun: [playbook('post.yaml')],
        secrets: [{ name: 'deploy', project: 'git.example.com/org/app', data: {} }],
      },
      { secrets: [{ token: 's3cr3t-{{-value' }] },
    );
    expect(outcome.result).toBe('SUCCESS');
    s.log.finish();
    const console = readFileSync(s.logFile, 'utf8');
    expect(console).not.toContain('s3cr3t');
    expect(console).toContain('token=******');
    expect(console).toContain('creds defined: False');
    expect(JSON.stringify(s.jobOutput())).not.toContain('s3cr3t');
    expect(JSON.stringify(s.jobOutput())).toContain("no_log: true' was specified");
  });

  it('finds roles of another project and refuses Galaxy roles', async () => {
    const s = setup(
      { 'run.yaml': '- hosts: all\n  gather_facts: false\n  roles:\n    - greet\n' },
      { 'roles/greet/tasks/main.yaml': '- command: echo hello from the greet role\n' },
    );
    const role = { type: 'zuul' as const, connection: 'local', project: 'org/roles', target: 'roles', implicit: false };
    const outcome = await s.run({ run: [playbook('run.yaml', { roles: [role] })] });
    expect(outcome.result).toBe('SUCCESS');
    const task = s.jobOutput()[0].plays[0].tasks[0];
    expect(task).toMatchObject({ role: { name: 'greet' }, hosts: { worker: { stdout: 'hello from the greet role' } } });
    const galaxy = { type: 'galaxy' as const, connection: '', project: 'acme.tools', target: 'tools', implicit: false };
    const refused = await s.run({ run: [playbook('run.yaml', { roles: [galaxy] })] });
    expect(refused).toMatchObject({
      result: 'ERROR',
      errorDetail: expect.stringContaining('Galaxy roles are not supported'),
    });
  });

  it('runs trusted playbooks of a project the change touches from the branch as merged', async () => {
    const s = setup({ 'run.yaml': localPlay('    - command: echo proposed by the change\n') });
    // Change 1,1 of org/app is part of the speculative state.
    const change = { ...buildParams().item, mergeMode: 'merge-resolve' as const };
    const asMerged: Array<[string, string, string]> = [];
    const branchTree = (connection: string, project: string, branch: string, target: string): Promise<string> => {
      asMerged.push([connection, project, branch]);
      mkdirSync(target, { recursive: true });
      writeFileSync(path.join(target, 'run.yaml'), localPlay('    - command: echo as merged\n'));
      return Promise.resolve('0'.repeat(40));
    };
    const trusted = await s.run(
      { run: [playbook('run.yaml', { trusted: true, branch: 'master' })] },
      { params: { mergerItems: [change] }, branchTree },
    );
    expect(trusted.result).toBe('SUCCESS');
    expect(asMerged).toEqual([['local', 'org/app', 'master']]);
    const untrusted = await s.run({ run: [playbook('run.yaml')] }, { params: { mergerItems: [change] }, branchTree });
    expect(untrusted.result).toBe('SUCCESS');
    s.log.finish();
    const text = readFileSync(s.logFile, 'utf8');
    // The trusted run ran the branch as merged, the untrusted one the change.
    expect(text.indexOf('worker | as merged')).toBeLessThan(text.indexOf('worker | proposed by the change'));
    expect(text.match(/worker \| as merged/g)).toHaveLength(1);
  });

  it('refuses untrusted playbooks, and says why, where the kernel refuses the sandbox; trusted ones run', async () => {
    // A bwrap that fails as it does where unprivileged user namespaces are disabled.
    const refusing = path.join(root, 'refusing-bwrap');
    writeFileSync(
      refusing,
      '#!/bin/sh\n[ "$1" = --version ] && echo "bubblewrap 0.8.0" && exit 0\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n',
    );
    chmodSync(refusing, 0o755);
    const noSandbox = new AnsibleToolchain({ bwrap: refusing, pathEnv: process.env.PATH });
    expect((await noSandbox.probe()).sandbox).toEqual({
      available: false,
      mode: 'bwrap',
      error: 'the kernel refuses the bubblewrap sandbox: bwrap: setting up uid map: Permission denied',
    });
    const s = setup({ 'run.yaml': localPlay('    - command: "true"\n') });
    const untrusted = await s.run({ run: [playbook('run.yaml')] }, { toolchain: noSandbox });
    expect(untrusted).toMatchObject({
      result: 'ERROR',
      errorDetail:
        'Untrusted playbook run.yaml of org/app needs the bubblewrap sandbox: the kernel refuses the bubblewrap sandbox: bwrap: setting up uid map: Permission denied',
    });
    const trusted = await s.run({ run: [playbook('run.yaml', { trusted: true })] }, { toolchain: noSandbox });
    expect(trusted.result).toBe('SUCCESS');
  });

  it('keeps stderr apart in command results with ansible-split-streams', async () => {
    const s = setup({ 'run.yaml': localPlay('    - shell: echo out; echo err >&2\n') });
    expect((await s.run({ run: [playbook('run.yaml')] })).result).toBe('SUCCESS');
    expect(s.jobOutput()[0].plays[0].tasks[0].hosts.worker).toMatchObject({ stdout: 'out\nerr', stderr: '' });
    const split = setup({ 'run.yaml': localPlay('    - shell: echo out; echo err >&2\n') });
    expect((await split.run({ ansibleSplitStreams: true, run: [playbook('run.yaml')] })).result).toBe('SUCCESS');
    expect(split.jobOutput()[0].plays[0].tasks[0].hosts.worker).toMatchObject({ stdout: 'out', stderr: 'err' });
  });

  it('ends ERROR, counted in the toolchain state, when ansible-playbook is missing', async () => {
    const missing = new AnsibleToolchain({ ansiblePlaybook: '/nonexistent/ansible-playbook', pathEnv: '/nonexistent' });
    await missing.probe();
    const s = setup({ 'run.yaml': localPlay('    - command: "true"\n') });
    const outcome = await s.run({ run: [playbook('run.yaml')] }, { toolchain: missing });
    expect(outcome).toMatchObject({ result: 'ERROR', errorDetail: expect.stringContaining('cannot run Ansible') });
    expect(missing.current()).toMatchObject({ refusedBuilds: 1, lastRefused: { job: 'unit' } });
  });

  it('streams command output while the task runs', async () => {
    const s = setup({
      'run.yaml': localPlay('    - shell: "echo first; while [ ! -e release ]; do sleep 0.1; done; echo second"\n'),
    });
    const running = s.run({ run: [playbook('run.yaml')] });
    await s.untilLogged('worker | first', running);
    // The task is still running (waiting for `release`) when its first line arrived.
    expect(readFileSync(s.logFile, 'utf8')).not.toContain('second');
    writeFileSync(path.join(s.workspace, 'release'), '');
    expect((await running).result).toBe('SUCCESS');
  });

  const sandboxed = existsSync('/usr/bin/bwrap') ? it : it.skip;

  sandboxed('keeps untrusted playbooks in their workspace; trusted ones run unrestricted', async () => {
    const outside = path.join(root, 'outside-secret.txt');
    writeFileSync(outside, 'executor secret\n');
    const other = path.join(root, 'build-other-job', 'work');
    mkdirSync(other, { recursive: true });
    writeFileSync(path.join(other, 'secrets.json'), '{"other": "job"}\n');
    const escape = localPlay(
      `    - command: cat ${outside}\n      delegate_to: localhost\n      ignore_errors: true\n      register: direct\n` +
        `    - command: cat ${path.join(other, 'secrets.json')}\n      delegate_to: localhost\n      ignore_errors: true\n      register: neighbour\n` +
        `    - copy: {src: ${outside}, dest: stolen.txt}\n      ignore_errors: true\n` +
        `    - command: "echo workspace is writable"\n    - copy: {content: "mine\\n", dest: "{{ zuul.executor.work_root }}/mine.txt"}\n` +
        `    - zuul_return: {data: {direct: "{{ direct.rc }}", neighbour: "{{ neighbour.rc }}"}}\n`,
    );
    const s = setup({ 'escape.yaml': escape });
    const untrusted = await s.run({ run: [playbook('escape.yaml')] });
    expect(untrusted.result).toBe('SUCCESS');
    expect(untrusted.results.data).toMatchObject({ direct: '1', neighbour: '1' });
    expect(existsSync(path.join(s.workspace, 'stolen.txt'))).toBe(false);
    expect(readFileSync(path.join(s.workspace, 'work', 'mine.txt'), 'utf8')).toBe('mine\n');
    s.log.finish();
    expect(readFileSync(s.logFile, 'utf8')).not.toContain('executor secret');
    const t = setup({ 'escape.yaml': escape });
    const trusted = await t.run({ run: [playbook('escape.yaml', { trusted: true })] });
    expect(trusted.results.data).toMatchObject({ direct: '0', neighbour: '0' });
  });

  it('runs cleanup post-run playbooks after a cancel, and only those', async () => {
    const s = setup({
      'run.yaml': localPlay('    - shell: "echo started; sleep 60"\n'),
      'post.yaml': localPlay('    - command: touch post-ran\n'),
      'cleanup.yaml': localPlay('    - command: touch cleanup-ran\n'),
    });
    const controller = new AbortController();
    const running = s.run(
      {
        run: [playbook('run.yaml')],
        postRun: [playbook('post.yaml'), playbook('cleanup.yaml', { cleanup: true })],
      },
      { signal: controller.signal },
    );
    await s.untilLogged('worker | started', running);
    controller.abort();
    expect((await running).result).toBe('ABORTED');
    expect(existsSync(path.join(s.workspace, 'cleanup-ran'))).toBe(true);
    expect(existsSync(path.join(s.workspace, 'post-ran'))).toBe(false);
  });
});

describe('ansible-playbook on this machine', () => {
  it('is the Debian ansible-core the CI installs', () => {
    expect(execFileSync('ansible-playbook', ['--version'], { encoding: 'utf8' })).toMatch(
      /^ansible-playbook \[core 2\./,
    );
  });
});
