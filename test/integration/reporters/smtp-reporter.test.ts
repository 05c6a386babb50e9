/**
 * The SMTP reporter through the real server (docs/reporters.md#smtp): a pull request of the
 * fake GitHub runs `check`, whose start, success and failure reporters name the `mail`
 * connection; the test's SMTP server receives the mails with the reporter's or the
 * connection's addresses, the subject template filled in and the report's text, after the
 * connection authenticated as its `user`.
 */
import { appFiles, BASE_JOB, startGitHubTenant, tenantYaml, type GitHubTenant } from '../../helpers/github-tenant';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink';

jest.setTimeout(240_000);

const PIPELINES = `
- pipeline:
    name: check
    manager: independent
    trigger:
      github:
        - event: pull_request
          action: [opened, changed]
    start:
      mail:
        to: start@example.com
    success:
      mail:
        to: dev@example.com
        from: sluice@example.com
        subject: "{pipeline.name} passed: {change.project} {change} ({change.branch})"
    failure:
      mail: {}
${BASE_JOB}`;

describe('SMTP reporter end to end', () => {
  let sink: SmtpSink;
  let env: GitHubTenant;

  beforeAll(async () => {
    sink = await startSmtpSink({ sluice: 's3cret' });
    env = await startGitHubTenant({
      repos: { 'org/config': { 'zuul.yaml': PIPELINES }, 'org/app': appFiles() },
      tenantFile: tenantYaml('org/config', ['org/app']),
      connections: {
        mail: {
          driver: 'smtp',
          server: '127.0.0.1',
          port: sink.port,
          defaultFrom: 'zuul@example.com',
          defaultTo: 'team@example.com',
          user: 'sluice',
          password: 's3cret',
          useStarttls: false,
        },
      },
    });
  });

  afterAll(async () => {
    await env?.stop();
    await sink?.stop();
  });

  it('mails the start and success reports with the reporter addresses and subject', async () => {
    const pull = await env.hub.openPull('org/app', { title: 'Add feature', files: { 'feature.txt': 'x\n' } });
    const start = await sink.next((mail) => mail.to.includes('start@example.com'));
    expect(start.from).toBe('zuul@example.com');
    expect(start.user).toBe('sluice');
    expect(start.headers.subject).toBe(
      `Report for change ${pull.number},${pull.headSha} against refs/pull/${pull.number}/head`,
    );
    expect(start.text).toContain('Starting check jobs.');
    const success = await sink.next((mail) => mail.to.includes('dev@example.com'));
    expect(success.from).toBe('sluice@example.com');
    expect(success.headers.from).toBe('sluice@example.com');
    expect(success.headers.subject).toBe(`check passed: org/app ${pull.number},${pull.headSha} (main)`);
    expect(success.text).toMatch(/unit.*SUCCESS/);
  });

  it("mails a failure to the connection's default address", async () => {
    await env.hub.openPull('org/app', { title: 'Break it', files: { FAIL: 'yes\n' } });
    const failure = await sink.next((mail) => mail.to.includes('team@example.com'));
    expect(failure.from).toBe('zuul@example.com');
    expect(failure.text).toMatch(/unit.*FAILURE/);
  });
});
