/**
 * The dashboard's reading of `job-output.json` (web/src/logs/job-output.ts): the playbooks,
 * plays, tasks and host results of the reference's format (docs/logs.md#job-outputjson), the
 * task summary as the reference's dashboard computes it, and malformed input left out.
 */
import { parseJobOutput, phaseLabel, secondsBetween, summarize } from '../../../web/src/logs/job-output';

const run = (host: string, result: Record<string, unknown>, name = 'scripts/unit.sh (org/project)') => ({
  task: {
    name,
    id: 'task-id',
    duration: { start: '2026-11-25T00:06:41.831000Z', end: '2026-11-25T00:06:43.331000Z' },
  },
  hosts: { [host]: result },
});

const playbook = (phase: string, tasks: unknown[], stats: Record<string, unknown>) => ({
  playbook: `unit/${phase}`,
  phase,
  index: '0',
  branch: 'master',
  trusted: false,
  plays: [
    {
      play: {
        name: 'worker',
        id: 'play-id',
        duration: { start: '2026-11-25T00:06:41.000000Z', end: '2026-11-25T00:06:44.000000Z' },
      },
      tasks,
    },
  ],
  stats,
});

describe('job-output.json in the dashboard', () => {
  it('reads playbooks, tasks and results, and sums the task summary per host', () => {
    const parsed = parseJobOutput([
      playbook(
        'pre',
        [run('worker', { action: 'command', changed: true, failed: false, rc: 0, msg: '', stdout: 'ready\n' })],
        { worker: { ok: 1, changed: 1, failures: 0, ignored: 0, rescued: 0, skipped: 0, unreachable: 0 } },
      ),
      playbook(
        'run',
        [
          run('worker', {
            action: 'command',
            cmd: 'scripts/unit.sh',
            changed: true,
            failed: true,
            rc: 3,
            msg: 'non-zero return code',
            stdout: 'case 1\ncase 2',
            stdout_lines: ['case 1', 'case 2'],
            stderr: 'expected Hello',
            stderr_lines: ['expected Hello'],
          }),
          // The reference counts a non-zero exit code as a failure even without `failed`.
          run('worker', { action: 'command', changed: true, rc: 1, msg: '' }, 'scripts/lint.sh (org/project)'),
        ],
        { worker: { ok: 0, changed: 0, failures: 2, ignored: 0, rescued: 0, skipped: 0, unreachable: 0 } },
      ),
    ]);
    if (parsed instanceof Error) {
      throw parsed;
    }
    expect(parsed.map((p) => [p.phase, p.playbook])).toEqual([
      ['pre', 'unit/pre'],
      ['run', 'unit/run'],
    ]);
    const [unit] = parsed[1].plays[0].tasks;
    expect(unit).toMatchObject({ name: 'scripts/unit.sh (org/project)', start: '2026-11-25T00:06:41.831000Z' });
    expect(unit.hosts[0]).toMatchObject({
      host: 'worker',
      failed: true,
      rc: 3,
      cmd: 'scripts/unit.sh',
      stdout: ['case 1', 'case 2'],
      stderr: ['expected Hello'],
    });
    expect(parsed[0].plays[0].tasks[0].hosts[0].stdout).toEqual(['ready']); // split from `stdout`
    const [worker] = summarize(parsed);
    expect(worker).toMatchObject({ host: 'worker', ok: 1, changed: 1, failures: 2 });
    expect(worker.failed.map((f) => [f.task, f.playbook, f.result.msg])).toEqual([
      ['scripts/unit.sh (org/project)', 'unit/run', 'non-zero return code'],
      ['scripts/lint.sh (org/project)', 'unit/run', ''],
    ]);
    expect(secondsBetween(unit.start, unit.end)).toBe(1.5);
    expect(phaseLabel('run')).toBe('Run playbook');
  });

  it('leaves out what is malformed and refuses what is not a list of playbooks', () => {
    expect(parseJobOutput({ playbook: 'x' })).toBeInstanceOf(Error);
    const parsed = parseJobOutput([
      null,
      'text',
      { playbook: 'p', phase: 'run', plays: [null, { play: 'not an object' }, { play: { name: 'h' }, tasks: [1] }] },
      { playbook: 'q', phase: 'post', plays: [{ play: { name: 'h' }, tasks: [{ task: { name: 't' }, hosts: 'x' }] }] },
    ]);
    if (parsed instanceof Error) {
      throw parsed;
    }
    expect(parsed.map((p) => p.playbook)).toEqual(['p', 'q']);
    expect(parsed[0].plays).toEqual([{ name: 'h', start: null, end: null, tasks: [] }]);
    expect(parsed[1].plays[0].tasks).toEqual([{ name: 't', start: null, end: null, hosts: [] }]);
    expect(summarize(parsed)).toEqual([]);
  });
});
