/**
 * The MQTT reporter through the real server (docs/reporters.md#mqtt): a pull request of the fake
 * GitHub runs `check`, whose start, success and failure reporters name the `bus` connection to
 * the Mosquitto broker on 127.0.0.1:1883 (`.ci/run` makes sure one answers); a subscriber
 * receives the messages on the topics with their `{name}` filled in, in the reference's shape.
 */
import { randomUUID } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { appFiles, BASE_JOB, startGitHubTenant, tenantYaml, type GitHubTenant } from '../../helpers/github-tenant';

jest.setTimeout(240_000);

const PREFIX = `sluice-test/${randomUUID()}`;
const TOPIC = `${PREFIX}/{tenant}/{pipeline}/{project}/{branch}/{change}`;

const PIPELINES = `
- pipeline:
    name: check
    manager: independent
    trigger:
      github:
        - event: pull_request
          action: [opened, changed]
    start:
      bus:
        topic: "${TOPIC}"
    success:
      bus:
        topic: "${TOPIC}"
        qos: 1
        include-returned-data: true
    failure:
      bus:
        topic: "${PREFIX}/failures"
        qos: 2
${BASE_JOB}`;

interface Received {
  topic: string;
  body: Record<string, unknown>;
}

describe('MQTT reporter end to end', () => {
  let subscriber: MqttClient;
  let env: GitHubTenant;
  const received: Received[] = [];

  beforeAll(async () => {
    subscriber = await mqtt.connectAsync('mqtt://127.0.0.1:1883');
    subscriber.on('message', (topic, payload) => {
      received.push({ topic, body: JSON.parse(payload.toString('utf8')) as Record<string, unknown> });
    });
    await subscriber.subscribeAsync(`${PREFIX}/#`, { qos: 2 });
    env = await startGitHubTenant({
      repos: { 'org/config': { 'zuul.yaml': PIPELINES }, 'org/app': appFiles() },
      tenantFile: tenantYaml('org/config', ['org/app']),
      connections: {
        bus: { driver: 'mqtt', server: '127.0.0.1', port: 1883, keepalive: 30, transport: 'tcp' },
      },
    });
  });

  afterAll(async () => {
    await env?.stop();
    await subscriber?.endAsync();
  });

  async function message(match: (m: Received) => boolean, timeoutMs = 120_000): Promise<Received> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = received.find(match);
      if (found) {
        return found;
      }
      if (Date.now() > deadline) {
        throw new Error(`no matching message (received: ${received.map((m) => m.topic).join(', ')})`);
      }
      await new Promise<void>((resolve) => subscriber.once('message', () => resolve()));
    }
  }

  it('publishes start and success with the topic filled in and the buildset with its builds', async () => {
    const pull = await env.hub.openPull('org/app', { title: 'Add feature', files: { 'feature.txt': 'x\n' } });
    const topic = `${PREFIX}/acme/check/org/app/main/${pull.number}`;
    const start = await message((m) => m.topic === topic && m.body.action === 'start');
    expect(start.body).toMatchObject({
      tenant: 'acme',
      pipeline: 'check',
      project: 'org/app',
      branch: 'main',
      change: String(pull.number),
      patchset: pull.headSha,
      ref: `refs/pull/${pull.number}/head`,
      message: 'Starting check jobs.',
    });
    const success = await message((m) => m.topic === topic && m.body.action === 'success');
    const body = success.body;
    expect(body.uuid).toBe(start.body.uuid);
    expect(body.zuul_ref).toMatch(/^Z[0-9a-f]{32}$/);
    expect(typeof body.enqueue_time).toBe('number');
    expect(typeof body.trigger_time).toBe('number');
    expect(String(body.change_url)).toContain(`/pull/${pull.number}`);
    expect(body.message).toMatch(/unit.*SUCCESS/);
    const buildset = body.buildset as { uuid: string; result: string; builds: Array<Record<string, unknown>> };
    expect(buildset.result).toBe('SUCCESS');
    expect(buildset.builds).toHaveLength(1);
    const [build] = buildset.builds;
    expect(build).toMatchObject({ job_name: 'unit', voting: true, result: 'SUCCESS', dependencies: [] });
    expect(typeof build.start_time).toBe('number');
    expect(Number(build.end_time)).toBeGreaterThanOrEqual(Number(build.start_time));
    expect(build.web_url).toBe(`https://sluice.example.com/t/acme/build/${String(build.uuid)}`);
    expect(typeof build.log_url).toBe('string');
    expect(build.returned_data).toEqual(expect.any(Object));
  });

  it('publishes a failure to its own topic', async () => {
    const pull = await env.hub.openPull('org/app', { title: 'Break it', files: { FAIL: 'yes\n' } });
    const failure = await message((m) => m.topic === `${PREFIX}/failures` && m.body.change === String(pull.number));
    expect(failure.body.action).toBe('failure');
    const buildset = failure.body.buildset as { result: string; builds: Array<Record<string, unknown>> };
    expect(buildset.result).toBe('FAILURE');
    expect(buildset.builds[0]).toMatchObject({ job_name: 'unit', result: 'FAILURE' });
    expect(buildset.builds[0]).not.toHaveProperty('returned_data');
  });
});
