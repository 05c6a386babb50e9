/**
 * Warnings the reference gives for configuration it still loads
 * (docs/project-configuration.md#config-errors): regexes RE2 lacks in pragmas and triggers,
 * deprecated GitHub trigger and reporter forms. The objects load.
 */
import { memoryLayout } from '../../helpers/memory-layout';

const JOBS = `
- job: {name: base, parent: null, run: base.sh}
`;
const CONNECTIONS = { github: 'github' };

function load(config: string, project = '') {
  return memoryLayout(
    [
      { name: 'config', trusted: true, branches: { master: { 'zuul.yaml': `${JOBS}${config}` } } },
      ...(project === '' ? [] : [{ name: 'org/a', branches: { master: { 'zuul.yaml': project } } }]),
    ],
    '',
    undefined,
    CONNECTIONS,
  );
}

function warnings(layout: ReturnType<typeof memoryLayout>): Array<[string, string, number | undefined]> {
  return layout.errors.map((e) => {
    expect(e.severity).toBe('warning');
    return [e.name, e.shortError, e.line];
  });
}

describe('regex deprecation', () => {
  it('warns for a pragma implied-branches regex RE2 lacks; the file still loads with it', () => {
    const layout = memoryLayout([
      { name: 'config', trusted: true, branches: { master: { 'zuul.yaml': JOBS } } },
      {
        name: 'org/a',
        branches: {
          master: { 'zuul.yaml': "- pragma:\n    implied-branches: ['(?!stable/).*']\n- job: {name: a, run: a.sh}\n" },
          stable: {},
        },
      },
    ]);
    expect(warnings(layout)).toEqual([
      [
        'Regex Deprecation',
        'The regular expression "(?!stable/).*" uses syntax RE2 does not support; it is deprecated.',
        2,
      ],
    ]);
    expect(layout.errors[0].error).toMatch(
      /^Zuul encountered a deprecated syntax while parsing its configuration in the repo org\/a on branch master\./,
    );
    expect(layout.jobs.get('a')?.[0].branchMatcher).toEqual({
      kind: 'explicit',
      regexes: [{ pattern: '(?!stable/).*', negate: false }],
    });
  });

  it('warns for trigger regexes RE2 lacks (git ref, zuul pipeline, github branch and comment)', () => {
    const layout = load(`
- pipeline:
    name: post
    manager: supercedent
    trigger:
      gerrit: [{event: ref-updated, ref: '^refs/heads/(?!wip/).*$'}]
      zuul: [{event: parent-change-enqueued, pipeline: '(?<!x)gate'}]
- pipeline:
    name: check
    manager: independent
    trigger:
      github:
        - {event: pull_request, action: opened, branch: '(?=main)main'}
        - {event: pull_request, action: comment, comment: '(\\w)\\1'}
`);
    expect(warnings(layout).map(([name, message]) => [name, message.replace(/ uses syntax.*/, '')])).toEqual([
      ['Regex Deprecation', 'The regular expression "^refs/heads/(?!wip/).*$"'],
      ['Regex Deprecation', 'The regular expression "(?<!x)gate"'],
      ['Regex Deprecation', 'The regular expression "(?=main)main"'],
      ['Regex Deprecation', 'The regular expression "(\\w)\\1"'],
    ]);
    expect([...layout.pipelines.keys()]).toEqual(['post', 'check']);
  });
});

describe('GitHub trigger and reporter warnings', () => {
  const pipeline = (trigger: string, reporter = '{status: success}') => `
- pipeline:
    name: check
    manager: independent
    trigger:
      github:
        - ${trigger}
    success:
      github: ${reporter}
`;

  // As in the reference, attributes outside the current form also fail its per-event check.
  it.each([
    [
      'require-status',
      "{event: pull_request, action: opened, require-status: 'ci:build:success'}",
      ['Github require-status Deprecation', 'Github Trigger Configuration Warning'],
    ],
    [
      'unlabel',
      '{event: pull_request, action: unlabeled, unlabel: wip}',
      ['Github unlabel Deprecation', 'Github Trigger Configuration Warning'],
    ],
    ['an event list', '{event: [pull_request, push]}', ['Github event list Deprecation']],
    ['the requested action', '{event: check_run, action: requested}', ['Github requested action Deprecation']],
  ])('warns for %s', (_what, trigger, names) => {
    expect(warnings(load(pipeline(trigger))).map(([n]) => n)).toEqual(names);
  });

  it.each([
    [
      'a comment filter without action: comment',
      "{event: pull_request, comment: 'recheck'}",
      "extra keys not allowed @ data['comment']",
    ],
    [
      'a pull_request action the reference does not know',
      '{event: pull_request, action: edited}',
      'not a valid value for dictionary value @ data',
    ],
    [
      'a ref on a pull_request',
      "{event: pull_request, action: opened, ref: 'refs/heads/x'}",
      "extra keys not allowed @ data['ref']",
    ],
    ['a review state the reference does not know', '{event: pull_request_review, state: approve}', "@ data['state']"],
  ])('warns for %s as a trigger configuration warning', (_what, trigger, problem) => {
    const found = warnings(load(pipeline(trigger)));
    expect(found).toEqual([
      ['Github Trigger Configuration Warning', expect.stringContaining(problem), expect.any(Number)],
    ]);
    expect(found[0][1]).toMatch(/^The trigger configuration as supplied has an error: /);
  });

  it('gives no warning for filters in the current form', () => {
    const layout = load(`
- pipeline:
    name: check
    manager: independent
    trigger:
      github:
        - {event: pull_request, action: [opened, changed, reopened], branch: main}
        - {event: pull_request, action: comment, comment: '(?i)^\\s*recheck\\s*$'}
        - {event: pull_request, action: labeled, label: gate}
        - {event: pull_request_review, action: submitted, state: approved}
        - {event: push, ref: '^refs/tags/.*$'}
        - {event: check_run, action: rerequested, check: 'sluice:.*'}
`);
    expect(layout.errors).toEqual([]);
  });

  it('warns for the status-url reporter option', () => {
    expect(warnings(load(pipeline('{event: pull_request}', "{status: success, status-url: 'https://x'}")))).toEqual([
      ['Github status-url Deprecation', 'The "status-url" reporter attribute is deprecated.', expect.any(Number)],
    ]);
  });
});
