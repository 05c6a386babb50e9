/**
 * The log formats' building blocks (docs/logs.md): the structured output recorder (masking,
 * per-step output limit, times, a continued build appending to the file it finds) and the
 * manifest tree (types, order, links, the entry cap).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  isoTime,
  JobOutputRecorder,
  STEP_OUTPUT_LIMIT,
  TRUNCATION_NOTE,
  type HostResult,
  type JobOutputPlaybook,
} from '../../../src/executor/job-output-json';
import { manifestTree, manifestTypeOf } from '../../../src/executor/log-manifest';
import { createRedactor } from '../../../src/secrets/redact';
import { expectValid, jobOutputSchema, manifestPaths } from '../../helpers/log-schemas';

describe('JobOutputRecorder', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-job-output-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A clock moving 1.5 s per reading from a fixed time. */
  function steppingClock(): () => Date {
    let at = Date.parse('2026-11-22T01:55:12.123Z');
    return () => {
      const now = new Date(at);
      at += 1500;
      return now;
    };
  }

  const read = (): JobOutputPlaybook[] =>
    expectValid(
      jobOutputSchema,
      JSON.parse(readFileSync(path.join(dir, 'job-output.json'), 'utf8')),
      'job-output.json',
    ) as JobOutputPlaybook[];

  it('writes a phase once it ends, with times in the reference forms and secrets masked', () => {
    const recorder = new JobOutputRecorder({
      logDir: dir,
      jobName: 'unit',
      host: 'worker',
      branch: 'main',
      redactor: createRedactor(['hunter2']),
      now: steppingClock(),
    });
    recorder.stepStarted({ phase: 'run', path: 'test.sh', project: 'org/app' });
    recorder.line('stdout', 'password hunter2');
    recorder.stepEnded({ kind: 'exited', code: 0, signal: null });
    expect(() => readFileSync(path.join(dir, 'job-output.json'))).toThrow();
    recorder.phaseEnded('run');
    const [playbook] = read();
    const host = playbook.plays[0].tasks[0].hosts.worker;
    expect(host.stdout).toBe('password ******');
    expect(JSON.stringify(playbook)).not.toContain('hunter2');
    // Readings: phase start = step start (01:55:12.123), step end (+1.5 s), phase end (+3 s).
    expect(playbook.plays[0].tasks[0].task.duration).toEqual({
      start: '2026-11-22T01:55:13.623000Z',
      end: '2026-11-22T01:55:15.123000Z',
    });
    expect(host).toMatchObject({
      start: '2026-11-22 01:55:13.623000',
      end: '2026-11-22 01:55:15.123000',
      delta: '0:00:01.500000',
    });
    expect(isoTime(new Date(0))).toBe('1970-01-01T00:00:00.000000Z');
  });

  it('keeps at most the output limit of a step and says where the rest is', () => {
    const recorder = new JobOutputRecorder({ logDir: dir, jobName: 'unit', host: 'localhost', branch: 'main' });
    recorder.stepStarted({ phase: 'run', path: 'noisy.sh', project: 'org/app' });
    const line = 'x'.repeat(1000);
    for (let i = 0; i < STEP_OUTPUT_LIMIT / 1000 + 10; i += 1) {
      recorder.line(i % 2 === 0 ? 'stdout' : 'stderr', line);
    }
    recorder.stepEnded({ kind: 'exited', code: 1, signal: null });
    recorder.phaseEnded('run');
    const host = read()[0].plays[0].tasks[0].hosts.localhost as HostResult;
    const kept = [...host.stdout_lines, ...host.stderr_lines];
    expect(kept.filter((l) => l === line).length * 1001).toBeLessThanOrEqual(STEP_OUTPUT_LIMIT + 1001);
    expect(kept.filter((l) => l === TRUNCATION_NOTE)).toHaveLength(1);
    expect(host).toMatchObject({ failed: true, rc: 1, msg: 'non-zero return code' });
  });

  it('writes nothing for a phase without steps, and appends to the file a paused build left', () => {
    const first = new JobOutputRecorder({ logDir: dir, jobName: 'unit', host: 'localhost', branch: 'main' });
    first.phaseEnded('pre-run');
    first.stepStarted({ phase: 'run', path: 'serve.sh', project: 'org/app' });
    first.stepEnded({ kind: 'aborted' });
    first.phaseEnded('run');
    const resumed = new JobOutputRecorder({ logDir: dir, jobName: 'unit', host: 'localhost', branch: 'main' });
    resumed.stepStarted({ phase: 'post-run', path: 'stop.sh', project: 'org/app' });
    resumed.stepEnded({ kind: 'spawn-error', message: 'EACCES' });
    resumed.phaseEnded('post-run');
    const playbooks = read();
    expect(playbooks.map((p) => p.phase)).toEqual(['run', 'post']);
    expect(playbooks[0].plays[0].tasks[0].hosts.localhost.msg).toBe('stopped by cancel');
    expect(playbooks[1].plays[0].tasks[0].hosts.localhost).toMatchObject({ rc: null, msg: 'could not start: EACCES' });
  });

  it('starts afresh over an unreadable file', () => {
    writeFileSync(path.join(dir, 'job-output.json'), '{"not": "a list"}');
    const recorder = new JobOutputRecorder({ logDir: dir, jobName: 'unit', host: 'localhost', branch: 'main' });
    recorder.stepStarted({ phase: 'run', path: 'a.sh', project: 'org/app' });
    recorder.stepEnded({ kind: 'exited', code: null, signal: 'SIGKILL' });
    recorder.phaseEnded('run');
    expect(read().map((p) => p.plays[0].tasks[0].hosts.localhost.msg)).toEqual(['killed by signal SIGKILL']);
  });
});

describe('manifest tree', () => {
  it('types files as the reference does: the inner type of compressed files, text/plain when unknown', () => {
    expect(manifestTypeOf('job-output.txt')).toEqual({ mimetype: 'text/plain', encoding: null });
    expect(manifestTypeOf('inventory.yaml')).toEqual({ mimetype: 'text/plain', encoding: null });
    expect(manifestTypeOf('job-output.json')).toEqual({ mimetype: 'application/json', encoding: null });
    expect(manifestTypeOf('job-output.json.gz')).toEqual({ mimetype: 'application/json', encoding: 'gzip' });
    expect(manifestTypeOf('syslog.XZ')).toEqual({ mimetype: 'text/plain', encoding: 'xz' });
    expect(manifestTypeOf('site.tgz')).toEqual({ mimetype: 'application/x-tar', encoding: 'gzip' });
    expect(manifestTypeOf('syslog')).toEqual({ mimetype: 'text/plain', encoding: null });
    expect(manifestTypeOf('graph.svg')).toEqual({ mimetype: 'image/svg+xml', encoding: null });
  });

  it('lists folders first, then files, by name; leaves out links to folders and links leading out; stops at the cap', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'sluice-manifest-'));
    try {
      const logs = path.join(root, 'logs');
      mkdirSync(path.join(logs, 'b-dir', 'deeper'), { recursive: true });
      mkdirSync(path.join(logs, 'a-dir'));
      writeFileSync(path.join(logs, 'z.txt'), 'z');
      writeFileSync(path.join(logs, 'a.txt'), 'aa');
      writeFileSync(path.join(logs, 'b-dir', 'deeper', 'x.log'), 'xxx');
      writeFileSync(path.join(root, 'outside.txt'), 'secret');
      symlinkSync(path.join(root, 'outside.txt'), path.join(logs, 'out.txt'));
      symlinkSync(path.join(logs, 'a.txt'), path.join(logs, 'in.txt'));
      symlinkSync(root, path.join(logs, 'loop'));
      const { tree, truncated } = await manifestTree(logs);
      expect(truncated).toBe(false);
      expect(manifestPaths(tree)).toEqual(['b-dir/deeper/x.log', 'a.txt', 'in.txt', 'z.txt']);
      expect(tree.map((entry) => entry.name)).toEqual(['a-dir', 'b-dir', 'a.txt', 'in.txt', 'z.txt']);
      expect(tree.find((entry) => entry.name === 'in.txt')).toMatchObject({ size: 2 });
      const capped = await manifestTree(logs, logs, [], 3);
      expect(capped.truncated).toBe(true);
      // Entries in name order until the cap: a-dir, a.txt, b-dir (whose contents no longer fit).
      expect(capped.tree.map((entry) => entry.name)).toEqual(['a-dir', 'b-dir', 'a.txt']);
      expect(manifestPaths(capped.tree)).toEqual(['a.txt']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
