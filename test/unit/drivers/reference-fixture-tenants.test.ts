/**
 * Configurations shaped as the reference's fixture tenants `basic-gitlab`, `timer-smtp` and
 * `mqtt-driver` (written here with the same drivers, keys and values; docs/gitlab.md,
 * docs/reporters.md) load without errors: GitLab triggers of every action and the approval
 * reporter, a timer pipeline reporting by mail with `to`/`from`/`subject`, and MQTT reporters
 * with topic templates and `include-returned-data` beside Gerrit votes.
 */
import { memoryLayout } from '../../helpers/memory-layout';

function load(config: string, connections: Record<string, string>) {
  return memoryLayout(
    [{ name: 'config', trusted: true, branches: { master: { 'zuul.yaml': config } } }],
    '',
    undefined,
    connections,
  );
}

const BASE = `
- job:
    name: base
    parent: null
    run: playbooks/base.yaml
- job:
    name: unit
    run: playbooks/unit.yaml
`;

const GITLAB = `
- pipeline:
    name: check
    manager: independent
    trigger:
      gitlab:
        - event: gl_merge_request
          action: comment
          comment: (?i)^\\s*recheck\\s*$
        - event: gl_merge_request
          action: [opened, changed]
    start:
      gitlab: {comment: true, approval: false}
    success:
      gitlab: {comment: true, approval: true}
    failure:
      gitlab: {comment: true, approval: false}
- pipeline:
    name: on-approval
    manager: independent
    trigger:
      gitlab:
        - event: gl_merge_request
          action: [approved, unapproved]
- pipeline:
    name: on-label
    manager: independent
    trigger:
      gitlab:
        - event: gl_merge_request
          action: [labeled]
          labels: [gateit]
        - event: gl_merge_request
          action: [labeled]
          unlabels: [verified]
- pipeline:
    name: promote
    manager: independent
    trigger:
      gitlab:
        - event: gl_merge_request
          action: [merged]
- pipeline:
    name: post
    post-review: true
    manager: independent
    trigger:
      gitlab:
        - event: gl_push
          ref: ^refs/heads/.*$
- pipeline:
    name: tag
    post-review: true
    manager: independent
    trigger:
      gitlab:
        - event: gl_push
          ref: ^refs/tags/.*$
${BASE}
- project:
    name: config
    check: {jobs: [unit]}
    on-approval: {jobs: [unit]}
    on-label: {jobs: [unit]}
    promote: {jobs: [unit]}
    post: {jobs: [unit]}
    tag: {jobs: [unit]}
`;

const TIMER_SMTP = `
- pipeline:
    name: periodic
    manager: independent
    trigger:
      timer:
        - time: '* * * * * */1'
    success:
      smtp:
        to: someone-else@example.com
        from: sluice-from@example.com
        subject: Periodic check for {change.project} succeeded
${BASE}
- project:
    name: config
    periodic: {jobs: [unit]}
`;

const MQTT = `
- pipeline:
    name: check
    manager: independent
    trigger:
      gerrit:
        - event: patchset-created
    start:
      mqtt:
        topic: "{tenant}/zuul_start/{pipeline}/{project}/{branch}"
        include-returned-data: True
    success:
      gerrit:
        Verified: 1
      mqtt:
        topic: "{tenant}/zuul_buildset/{pipeline}/{project}/{branch}"
        include-returned-data: True
    failure:
      gerrit:
        Verified: -1
      mqtt:
        topic: "{tenant}/zuul_buildset/{pipeline}/{project}/{branch}"
- pipeline:
    name: gate
    manager: dependent
    success-message: Build succeeded (gate).
    trigger:
      gerrit:
        - event: comment-added
          approval:
            - Approved: 1
    start:
      gerrit:
        Verified: 0
      mqtt:
        topic: "{tenant}/zuul_start/{pipeline}/{project}/{branch}"
    success:
      gerrit:
        Verified: 2
        submit: true
      mqtt:
        topic: "{tenant}/zuul_buildset/{pipeline}/{project}/{branch}"
        include-returned-data: True
    failure:
      mqtt:
        topic: "{tenant}/zuul_buildset/{pipeline}/{project}/{branch}"
      gerrit:
        Verified: -2
    precedence: high
${BASE}
- job:
    name: dependent-unit
    run: playbooks/unit.yaml
- project:
    name: config
    queue: integrated
    check:
      jobs:
        - unit
        - dependent-unit: {dependencies: [unit]}
    gate:
      jobs:
        - unit
        - dependent-unit: {dependencies: [unit]}
`;

describe("the reference's fixture tenants of GitLab, SMTP and MQTT", () => {
  it.each([
    ['basic-gitlab', GITLAB, { gitlab: 'gitlab' }, ['check', 'on-approval', 'on-label', 'post', 'promote', 'tag']],
    ['timer-smtp', TIMER_SMTP, { smtp: 'smtp' }, ['periodic']],
    ['mqtt-driver', MQTT, { gerrit: 'gerrit', mqtt: 'mqtt' }, ['check', 'gate']],
  ])('load %s with no errors', (_name, config, connections, pipelines) => {
    const layout = load(config, connections);
    expect(layout.errors.map((e) => e.shortError)).toEqual([]);
    expect([...layout.pipelines.keys()].sort()).toEqual(pipelines);
  });
});
