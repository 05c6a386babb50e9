/**
 * The timer trigger's `time` (docs/project-configuration.md#triggers-reporters-and-requirements):
 * a specification the scheduler could not fire on is a configuration error at load, naming the
 * specification and what is wrong, and the pipeline is dropped; valid ones load.
 */
import { memoryLayout } from '../../helpers/memory-layout';

function load(time: string) {
  const config = `
- job: {name: base, parent: null, run: base.sh}
- pipeline:
    name: periodic
    manager: independent
    trigger:
      timer:
        - time: ${JSON.stringify(time)}
`;
  return memoryLayout([{ name: 'config', trusted: true, branches: { master: { 'zuul.yaml': config } } }]);
}

describe('timer trigger time', () => {
  it.each([['0 */6 * * *'], ['30 2 * * mon-fri'], ['0 0 1,15 jan,jul *'], ['0 3 * * * 30'], ['0 3 * * * 0 600']])(
    'loads %s',
    (time) => {
      const layout = load(time);
      expect(layout.errors).toEqual([]);
      expect(layout.pipelines.get('periodic')?.triggers[0].filters).toEqual([{ time }]);
    },
  );

  it.each([
    ['every day', 'cron expression must have 5 to 7 fields, not 2'],
    ['0 often * * *', '"often" is no value of its field'],
    ['* * *', 'cron expression must have 5 to 7 fields, not 3'],
    ['99 * * * *', 'minute 99 is not within 0-59'],
    ['0 24 * * *', 'hour 24 is not within 0-23'],
    ['0 0 32 * *', 'day of month 32 is not within 1-31'],
    ['0 0 0 * *', 'day of month 0 is not within 1-31'],
    ['0 0 * 13 *', 'month 13 is not within 1-12'],
    ['0 0 * * 7', 'day of week "7" is not 0-6 or mon-sun'],
    ['*/0 * * * *', 'illegal stepping'],
    ['5-1 * * * *', 'larger than'],
    ['0 0 * * * 60', 'second 60 is not within 0-59'],
    ['0 0 * * * 0 soon', 'the jitter "soon" is not a number of seconds'],
  ])('refuses %s: %s', (time, detail) => {
    const layout = load(time);
    expect(layout.errors.map((e) => [e.severity, e.name])).toEqual([['error', 'Unknown Configuration Error']]);
    expect(layout.errors[0].shortError).toContain(`Invalid timer specification "${time}": `);
    expect(layout.errors[0].shortError).toContain(detail);
    expect(layout.pipelines.has('periodic')).toBe(false);
  });

  it('refuses a time that is no string', () => {
    const layout = memoryLayout([
      {
        name: 'config',
        trusted: true,
        branches: {
          master: {
            'zuul.yaml':
              '- pipeline:\n    name: periodic\n    manager: independent\n    trigger:\n      timer:\n        - time: 5\n',
          },
        },
      },
    ]);
    expect(layout.errors.map((e) => e.shortError)).toEqual([
      'Invalid timer specification 5: expected a string of 5 to 7 cron fields',
    ]);
  });
});
