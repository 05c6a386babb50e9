/**
 * Build warnings in the report text of every reporter that sends it (docs/gating.md#reporting),
 * through the real server and executor: a pull request of the fake GitHub runs `check`, whose
 * job returns two warnings in its results file; the GitHub comment, the SMTP mail's body and the
 * MQTT message's `message` each carry the `Warning:` block, before the footer; so does the note
 * on a merge request of the fake GitLab.
 */
import { randomUUID } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import {
  appFiles,
  BASE_JOB,
  startGitHubTenant,
  tenantYaml,
  until,
  type GitHubTenant,
} from '../../helpers/github-tenant';
import { GITLAB_TENANT, gitlabCheck, startGitLabTenant, unitIn } from '../../helpers/gitlab-tenant';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink';

jest.setTimeout(240_000);

const TOPIC = `sluice-test/${randomUUID()}/warnings`;

const PIPELINES = `
- pipeline:
    name: check
    manager: independent
    footer-message: The footer.
    trigger:
      github:
        - event: pull_request
          action: [opened, changed]
    success:
      github:
        comment: true
      mail:
        to: dev@example.com
      bus:
        topic: "${TOPIC}"
${BASE_JOB}`;

const RETURNED = { warnings: ['unit: 2 tests skipped', 'unit: old toolchain'] };

const APP = {
  ...appFiles(),
  'unit.sh': ['#!/bin/sh', `cat > "$SLUICE_RESULTS_FILE" <<'JSON'`, JSON.stringify(RETURNED), 'JSON', ''].join('\n'),
};

const BLOCK = '\n\nWarning:\n  unit: 2 tests skipped\n  unit: old toolchain\n\nThe footer.';

describe('build warnings in every reporter’s text', () => {
  let sink: SmtpSink;
  let env: GitHubTenant;
  let subscriber: MqttClient;
  const published: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    subscriber = await mqtt.connectAsync('mqtt://127.0.0.1:1883');
    subscriber.on('message', (_topic, payload) => {
      published.push(JSON.parse(payload.toString('utf8')) as Record<string, unknown>);
    });
    await subscriber.subscribeAsync(TOPIC, { qos: 1 });
    sink = await startSmtpSink();
    env = await startGitHubTenant({
      repos: { 'org/config': { 'zuul.yaml': PIPELINES }, 'org/app': APP },
      tenantFile: tenantYaml('org/config', ['org/app']),
      connections: {
        mail: {
          driver: 'smtp',
          server: '127.0.0.1',
          port: sink.port,
          defaultFrom: 'zuul@example.com',
          defaultTo: 'team@example.com',
          useStarttls: false,
        },
        bus: { driver: 'mqtt', server: '127.0.0.1', port: 1883, keepalive: 30, transport: 'tcp' },
      },
    });
  });

  afterAll(async () => {
    await env?.stop();
    await sink?.stop();
    await subscriber?.endAsync();
  });

  it('appends the warnings to the GitHub comment, the mail and the MQTT message', async () => {
    const pull = await env.hub.openPull('org/app', { title: 'Warn', files: { 'feature.txt': 'x\n' } });
    const mail = await sink.next((m) => m.to.includes('dev@example.com'));
    // Mail lines end with CRLF on the wire.
    expect(mail.text.replace(/\r\n/g, '\n').trimEnd().endsWith(BLOCK)).toBe(true);
    expect(mail.text).toMatch(/unit.*SUCCESS/);
    const comment = await until('the comment', () => pull.comments.find((c) => c.body.includes('Warning:')));
    expect(comment.body.endsWith(BLOCK)).toBe(true);
    const message = await until('the MQTT message', () => published.find((m) => m.action === 'success'));
    expect(String(message.message).endsWith(BLOCK)).toBe(true);
  });
});

describe('build warnings in the GitLab note', () => {
  it('appends the warnings to the merge request’s note', async () => {
    const pipelines = `${gitlabCheck([], ['footer-message: The footer.', 'success:', '  gitlab: {}'])}\n${BASE_JOB}`;
    const env = await startGitLabTenant({
      projects: {
        'org/config': { 'zuul.yaml': pipelines },
        'org/app': { ...unitIn('check'), 'unit.sh': APP['unit.sh'] },
      },
      tenantFile: GITLAB_TENANT,
    });
    try {
      const mr = await env.lab.openMergeRequest('org/app', { title: 'Warn', files: { 'w.txt': 'w\n' } });
      const note = await until('the note', () => mr.notes.find((n) => n.startsWith('Build succeeded')));
      expect(note.endsWith(BLOCK)).toBe(true);
    } finally {
      await env.stop();
    }
  });
});
