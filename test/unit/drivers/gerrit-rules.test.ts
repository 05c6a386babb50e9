/**
 * The Gerrit driver's configuration (docs/gerrit.md): reference-style Gerrit pipelines load,
 * bad options are refused with the reference's messages, the connection's keys are validated,
 * and trigger filters and requirements judge events and changes as documented.
 */
import { parseServiceConfig, ServiceConfigError } from '../../../src/config/service';
import { compileGerritTrigger } from '../../../src/drivers/gerrit/rules';
import { triggerOf } from '../../../src/drivers/gerrit/events';
import { gerritRequirementCheck } from '../../../src/drivers/gerrit/requirements';
import type { ChangeInfo, GerritChangeState } from '../../../src/model/changes';
import { memoryLayout } from '../../helpers/memory-layout';

const JOBS = `
- job: {name: base, parent: null, run: base.sh}
`;

/** Pipelines as the reference's own Gerrit fixtures write them. */
const REFERENCE_PIPELINES = `
- pipeline:
    name: check
    manager: independent
    trigger:
      review:
        - event: patchset-created
        - event: draft-published
        - event: comment-added
          comment: (?i)^(Patch Set [0-9]+:)?( [\\w\\\\+-]*)*(\\n\\n)?\\s*recheck
        - event: wip-state-changed
        - event: hashtags-changed
          added: [ci]
    start:
      review:
        Verified: 0
    success:
      review:
        Verified: 1
    failure:
      review:
        Verified: -1
- pipeline:
    name: gate
    manager: dependent
    success-message: Build succeeded (gate pipeline).
    failure-message: Build failed (gate pipeline).
    require:
      review:
        open: True
        current-patchset: True
        wip: false
        status: NEW
        approval:
          - Verified: [1, 2]
            username: zuul
          - Workflow: 1
    reject:
      review:
        approval:
          - Code-Review: [-1, -2]
        hashtags: [do-not-merge]
    trigger:
      review:
        - event: comment-added
          approval:
            - Workflow: 1
          require-approval:
            - Code-Review: 2
              newer-than: 48h
        - event: comment-added
          approval:
            - Verified: 1
          username: zuul
        - event: change-restored
        - event: pending-check
          uuid: 'zuul:check'
          scheme: zuul
    start:
      review:
        Verified: 0
    success:
      review:
        Verified: 2
        submit: true
        notify: OWNER
    failure:
      review:
        Verified: -2
        comment: true
- pipeline:
    name: post
    manager: supercedent
    post-review: true
    trigger:
      review:
        - event: ref-updated
          ref: ^(?!refs/).*$
          ignore-deletes: false
        - event: change-merged
        - event: change-abandoned
`;

function load(config: string) {
  return memoryLayout(
    [{ name: 'config', trusted: true, branches: { master: { 'zuul.yaml': `${JOBS}${config}` } } }],
    '',
    undefined,
    { review: 'gerrit' },
  );
}

function errors(config: string): string[] {
  return load(config).errors.map((e) => e.shortError);
}

describe('Gerrit pipelines', () => {
  it("load the reference's Gerrit pipelines with no error, only the reference's warnings", () => {
    const layout = load(REFERENCE_PIPELINES);
    expect(layout.errors.map((e) => [e.severity, e.name, e.shortError])).toEqual([
      [
        'warning',
        'Gerrit require-approval Deprecation',
        'The "require-approval" trigger attribute is deprecated; use "require" instead.',
      ],
      [
        'warning',
        'Regex Deprecation',
        'The regular expression "^(?!refs/).*$" uses syntax RE2 does not support; it is deprecated.',
      ],
    ]);
    expect([...layout.pipelines.keys()].sort()).toEqual(['check', 'gate', 'post']);
  });

  it.each([
    ['an unknown event', '- event: comment-edited', 'Unknown gerrit event "comment-edited"'],
    [
      'an unknown key',
      '- event: comment-added\n          labels: x',
      "extra keys not allowed @ data['trigger']['labels']",
    ],
    ['a label value that is no vote', '- event: comment-added\n          approval: {Workflow: yes}', 'must be a vote'],
    [
      'a bad time',
      '- event: comment-added\n          require-approval: {Code-Review: 2, newer-than: soon}',
      'Unable to parse time value: soon',
    ],
    ['a bad regex', '- event: comment-added\n          comment: "("', 'Invalid regular expression'],
  ])('refuse %s in a trigger', (_what, filter, message) => {
    const config = `\n- pipeline:\n    name: check\n    manager: independent\n    trigger:\n      review:\n        ${filter}\n`;
    expect(errors(config).join('\n')).toContain(message);
  });

  it('warn, as the reference does, for reject-approval and require-approval in a trigger; the filter still loads', () => {
    const layout = load(
      `\n- pipeline:\n    name: check\n    manager: independent\n    trigger:\n      review:\n` +
        `        - event: comment-added\n          reject-approval: {Code-Review: -2}\n` +
        `        - event: comment-added\n          require: {approval: {Code-Review: 2}}\n`,
    );
    expect(layout.errors.map((e) => [e.severity, e.name, e.shortError, e.line])).toEqual([
      [
        'warning',
        'Gerrit reject-approval Deprecation',
        'The "reject-approval" trigger attribute is deprecated; use "reject" instead.',
        7,
      ],
    ]);
    expect(layout.pipelines.get('check')?.triggers[0].filters).toHaveLength(2);
  });

  it('refuse a reporter vote that is no integer, an unknown notify and an unknown requirement', () => {
    const pipeline = (extra: string) =>
      `\n- pipeline:\n    name: check\n    manager: independent\n    trigger:\n      review:\n        - event: patchset-created\n${extra}`;
    expect(errors(pipeline('    success:\n      review:\n        Verified: high\n')).join()).toContain(
      'The gerrit reporter\'s "Verified" must be a vote',
    );
    expect(errors(pipeline('    success:\n      review:\n        notify: SOME\n')).join()).toContain(
      'Unknown gerrit notify "SOME"',
    );
    expect(errors(pipeline('    require:\n      review:\n        status: LOST\n')).join()).toContain(
      'Unknown gerrit change status "LOST"',
    );
    expect(errors(pipeline('    require:\n      review:\n        mergeable: true\n')).join()).toContain(
      "extra keys not allowed @ data['require']['mergeable']",
    );
  });
});

function problems(text: string): string[] {
  try {
    parseServiceConfig(text, '/etc/sluice/sluice.yaml');
  } catch (err) {
    if (err instanceof ServiceConfigError) {
      return err.problems;
    }
    throw err;
  }
  return [];
}

describe('Gerrit connection', () => {
  it("takes the reference's keys with their defaults, numbers given as strings too", () => {
    const config = parseServiceConfig(
      [
        'connections:',
        '  review:',
        '    driver: gerrit',
        '    server: review.example.com',
        '    password: secret',
        '    port: "29419"',
        '    event_delay: 0',
        '    git_over_ssh: "false"',
      ].join('\n'),
      '/etc/sluice/sluice.yaml',
    );
    expect(config.connections.review).toEqual({
      driver: 'gerrit',
      server: 'review.example.com',
      password: 'secret',
      port: 29419,
      user: 'zuul',
      keepalive: 60,
      auth_type: 'basic',
      event_delay: 0,
      git_over_ssh: false,
      poll_interval: 60,
      events_log: 'auto',
    });
  });

  it('refuses bad settings with clear messages', () => {
    const base = 'connections:\n  review:\n    driver: gerrit\n';
    expect(problems(`${base}    server: review.example.com\n`).join()).toContain('give "password"');
    expect(problems(`${base}    server: https://review.example.com\n    password: p\n`).join()).toContain(
      'must be a host name',
    );
    expect(problems(`${base}    server: r\n    password: p\n    auth_type: gcloud_service\n`).join()).toContain(
      'auth_type "gcloud_service" is not supported by Sluice: it takes its tokens from the Google Cloud metadata server',
    );
    expect(problems(`${base}    server: r\n    password: p\n    auth_type: digest\n`)).toEqual([]);
    expect(problems(`${base}    server: r\n    password: p\n    auth_type: form\n`)).toEqual([]);
    expect(problems(`${base}    server: r\n    password: p\n    auth_type: kerberos\n`).join()).toContain('auth_type');
    expect(problems(`${base}    server: r\n    password: p\n    port: 0\n`).join()).toContain(
      'must be an integer >= 1',
    );
    expect(problems(`${base}    server: r\n    password: p\n    git_over_ssh: true\n`).join()).toContain(
      'git_over_ssh needs "sshkey"',
    );
    expect(problems(`${base}    server: r\n    password: p\n    ssh_server: x\n`)).toEqual([]);
    expect(problems(`${base}    server: r\n    password: p\n    ssh_server: x:29418\n`).join()).toContain(
      'must be a host name',
    );
    expect(problems(`${base}    server: r\n    password: p\n    sshserver: x\n`).join()).toContain('sshserver');
    expect(problems(`${base}    server: r\n    password: p\n    events_log: maybe\n`).join()).toContain(
      'must be true, false or auto',
    );
    expect(problems(`${base}    server: r\n    password: p\n    events_log: "False"\n`)).toEqual([]);
  });
});

const NOW = new Date('2026-01-03T00:00:00Z');

function change(state: Partial<GerritChangeState> = {}, extra: Partial<ChangeInfo> = {}): ChangeInfo {
  return {
    kind: 'change',
    project: 'review.example.com/org/app',
    ref: 'refs/changes/07/7/2',
    branch: 'master',
    number: 7,
    patchset: '2',
    oldrev: null,
    newrev: 'a'.repeat(40),
    url: 'https://review.example.com/c/org/app/+/7',
    owner: 'dev',
    dependsOn: [],
    merged: false,
    currentPatchset: true,
    gerrit: {
      status: 'NEW',
      wip: false,
      topic: null,
      hashtags: [],
      changeId: `I${'1'.repeat(40)}`,
      approvals: [],
      ...state,
    },
    ...extra,
  };
}

const vote = (label: string, value: number, username = 'core', grantedOn = '2026-01-02T00:00:00Z') => ({
  label,
  value,
  username,
  email: `${username}@example.com`,
  grantedOn,
});

describe('Gerrit trigger filters', () => {
  it('comment-added with an approval: only a vote the event changed counts', () => {
    const matches = compileGerritTrigger({ event: 'comment-added', approval: [{ Workflow: 1 }] });
    const event = (approvals: Array<{ type: string; value: number; oldValue?: number }>) => ({
      type: 'comment-added',
      approvals,
    });
    expect(matches(event([{ type: 'Workflow', value: 1, oldValue: 0 }]), undefined, NOW)).toBe(true);
    expect(
      matches(
        event([
          { type: 'Workflow', value: 1 },
          { type: 'Code-Review', value: 2, oldValue: 0 },
        ]),
        undefined,
        NOW,
      ),
    ).toBe(false);
    expect(matches(event([{ type: 'Workflow', value: 1 }]), undefined, NOW)).toBe(true);
    expect(matches({ type: 'patchset-created' }, undefined, NOW)).toBe(false);
  });

  it('require-approval and reject-approval judge the change; username, email, comment and branch the event', () => {
    const matches = compileGerritTrigger({
      event: 'comment-added',
      'require-approval': [{ 'Code-Review': 2, 'newer-than': '2d' }],
      'reject-approval': [{ Verified: [-1, -2], username: 'zuul' }],
      username: 'core',
      comment: '(?i)RECHECK',
      branch: 'master',
    });
    const event = { type: 'comment-added', account: 'core', comment: 'Patch Set 2:\n\nrecheck please' };
    expect(matches(event, change({ approvals: [vote('Code-Review', 2)] }), NOW)).toBe(true);
    expect(matches(event, change({ approvals: [vote('Code-Review', 1)] }), NOW)).toBe(false);
    expect(matches(event, change({ approvals: [vote('Code-Review', 2, 'core', '2025-12-01T00:00:00Z')] }), NOW)).toBe(
      false,
    );
    expect(matches(event, change({ approvals: [vote('Code-Review', 2), vote('Verified', -1, 'zuul')] }), NOW)).toBe(
      false,
    );
    expect(matches({ ...event, account: 'other' }, change({ approvals: [vote('Code-Review', 2)] }), NOW)).toBe(false);
    expect(matches({ ...event, comment: 'lgtm' }, change({ approvals: [vote('Code-Review', 2)] }), NOW)).toBe(false);
    expect(matches(event, change({ approvals: [vote('Code-Review', 2)] }, { branch: 'stable/1' }), NOW)).toBe(false);
  });

  it('ref-updated: ref filters and ignore-deletes (on by default)', () => {
    const matches = compileGerritTrigger({ event: 'ref-updated', ref: '^refs/tags/' });
    const event = { type: 'ref-updated', ref: 'refs/tags/1.0', newrev: 'b'.repeat(40) };
    expect(matches(event, undefined, NOW)).toBe(true);
    expect(matches({ ...event, ref: 'refs/heads/master' }, undefined, NOW)).toBe(false);
    expect(matches({ ...event, newrev: '0'.repeat(40) }, undefined, NOW)).toBe(false);
    const deletes = compileGerritTrigger({ event: 'ref-updated', 'ignore-deletes': false });
    expect(deletes({ ...event, newrev: '0'.repeat(40) }, undefined, NOW)).toBe(true);
  });

  it('hashtags-changed added/removed and pending-check uuid/scheme', () => {
    const tags = compileGerritTrigger({ event: 'hashtags-changed', added: 'ci' });
    expect(tags({ type: 'hashtags-changed', added: ['ci'] }, undefined, NOW)).toBe(true);
    expect(tags({ type: 'hashtags-changed', removed: ['ci'] }, undefined, NOW)).toBe(false);
    const check = compileGerritTrigger({ event: 'pending-check', uuid: 'zuul:check' });
    expect(check({ type: 'pending-check', uuid: 'zuul:check' }, undefined, NOW)).toBe(true);
    expect(check({ type: 'pending-check', uuid: 'other:check' }, undefined, NOW)).toBe(false);
  });
});

describe('Gerrit trigger filters the reference also takes', () => {
  it('approval-change: a vote the event changed to that value, not one it kept', () => {
    const matches = compileGerritTrigger({ event: 'comment-added', 'approval-change': [{ 'Code-Review': [2] }] });
    const on = (approvals: Array<{ type: string; value: number; oldValue?: number }>) =>
      matches({ type: 'comment-added', approvals }, undefined, NOW);
    expect(on([{ type: 'Code-Review', value: 2, oldValue: 1 }])).toBe(true);
    expect(on([{ type: 'Code-Review', value: 2, oldValue: 2 }])).toBe(false);
    expect(on([{ type: 'Code-Review', value: 2 }])).toBe(false);
    expect(on([{ type: 'Code-Review', value: 1, oldValue: 0 }])).toBe(false);
    expect(
      errors(
        `\n- pipeline:\n    name: check\n    manager: independent\n    trigger:\n      review:\n        - event: comment-added\n          approval-change: {Code-Review: two}\n`,
      ).join(),
    ).toContain('approval-change: the value of label "Code-Review" must be a vote');
  });

  it('vote-deleted events load, are read from the stream with who removed the vote, and match', () => {
    expect(
      errors(
        '\n- pipeline:\n    name: check\n    manager: independent\n    trigger:\n      review:\n        - event: vote-deleted\n',
      ),
    ).toEqual([]);
    const event = triggerOf(
      {
        type: 'vote-deleted',
        change: { project: 'org/app', branch: 'master', number: 7 },
        patchSet: { number: 2 },
        // Gerrit names the voter too: who caused the event is the remover.
        reviewer: { username: 'dev' },
        remover: { username: 'core' },
        approvals: [{ type: 'Code-Review', value: '0', oldValue: '2' }],
      },
      'review',
    );
    expect(event).toMatchObject({
      type: 'vote-deleted',
      change: 7,
      account: 'core',
      approvals: [{ type: 'Code-Review', value: 0, oldValue: 2 }],
    });
    const matches = compileGerritTrigger({ event: 'vote-deleted', username: 'core' });
    expect(matches(event as NonNullable<typeof event>, undefined, NOW)).toBe(true);
  });

  it('username, email and hashtags are searched anywhere in the value, as the reference does', () => {
    const matches = compileGerritTrigger({
      event: 'hashtags-changed',
      username: 'bot',
      email: 'example\\.com$',
      added: 'ready',
    });
    const on = (fields: Record<string, unknown>) =>
      matches(
        { type: 'hashtags-changed', account: 'ci-bot', email: 'ci@example.com', added: ['not-ready'], ...fields },
        undefined,
        NOW,
      );
    expect(on({})).toBe(true);
    expect(on({ account: 'alice' })).toBe(false);
    expect(on({ email: 'ci@example.org' })).toBe(false);
    expect(on({ added: ['wip'] })).toBe(false);
  });
});

describe('Gerrit requirements', () => {
  it('require: open, current-patchset, wip, status, hashtags and approvals', () => {
    const check = gerritRequirementCheck(
      {
        open: true,
        'current-patchset': true,
        wip: false,
        status: 'NEW',
        hashtags: 'ready',
        approval: [{ 'Code-Review': 2, username: 'core' }, { Workflow: 1 }],
      },
      'require',
    );
    const ready = { hashtags: ['ready'], approvals: [vote('Code-Review', 2), vote('Workflow', 1)] };
    expect(check(change(ready), NOW)).toBeNull();
    expect(check(change({ ...ready, status: 'ABANDONED' }), NOW)).toBe('open is false (require open: true)');
    expect(check(change(ready, { currentPatchset: false }), NOW)).toBe(
      'current-patchset is false (require current-patchset: true)',
    );
    expect(check(change({ ...ready, wip: true }), NOW)).toBe('wip is true (require wip: false)');
    expect(check(change({ ...ready, hashtags: [] }), NOW)).toBe('it lacks a hashtag matching ready (require hashtags)');
    expect(check(change({ ...ready, approvals: [vote('Code-Review', 2, 'dev'), vote('Workflow', 1)] }), NOW)).toBe(
      'it lacks approvals matching {"Code-Review":2,"username":"core"} (require approval)',
    );
    expect(check(change(ready, { gerrit: undefined }), NOW)).toBe('it is not a Gerrit change (require)');
  });

  it('reject: any entry that holds refuses the change', () => {
    const check = gerritRequirementCheck({ approval: [{ 'Code-Review': [-1, -2] }], status: 'ABANDONED' }, 'reject');
    expect(check(change(), NOW)).toBeNull();
    expect(check(change({ approvals: [vote('Code-Review', -2)] }), NOW)).toBe(
      'it has approvals matching {"Code-Review":[-1,-2]} (reject approval)',
    );
    expect(check(change({ status: 'ABANDONED' }), NOW)).toBe('its status is ABANDONED (reject status: ABANDONED)');
  });
});
