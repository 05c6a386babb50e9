/**
 * The MQTT reporter through the real server (docs/reporters.md#mqtt): a pull request of the fake
 * GitHub runs `check`, whose start, success and failure reporters name the `bus` connection to
 * the Mosquitto broker on 127.0.0.1:1883 (`.ci/run` makes sure one answers); a subscriber
 * receives the messages on the topics with their `{name}` filled in, in the reference's shape:
 * the item's queue and changes, each build's job uuid (the one stored with the frozen job),
 * dependencies and change, retried builds.
 * The dependent pipeline `queued` puts `org/app` in its named queue `integrated`.
 */
import { randomUUID } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import type { FileMap } from '../../helpers/fake-github/repos';
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
- pipeline:
    name: queued
    manager: dependent
    trigger:
      github:
        - event: pull_request
          action: [opened]
    success:
      bus:
        topic: "${PREFIX}/queued/{change}"
    failure:
      bus:
        topic: "${PREFIX}/queued/{change}"
${BASE_JOB}`;

/** `org/app`: `unit` (fails with FAIL), `service` (pauses), `lint` after both, `flaky` whose pre-run fails with PREFAIL (two attempts). */
function mqttAppFiles(): FileMap {
  const files = appFiles();
  return {
    ...files,
    '.zuul.yaml': `
- job:
    name: unit
    run: unit.sh
- job:
    name: service
    run: service.sh
- job:
    name: lint
    run: unit.sh
    dependencies: [unit, service]
- job:
    name: flaky
    pre-run: pre.sh
    run: unit.sh
    attempts: 2
- project:
    queue: integrated
    check:
      jobs: [unit, service, lint, flaky]
    queued:
      jobs: [unit]
`,
    // Pauses after its run phase (as a service for its dependents); resumed once lint is done.
    'service.sh': '#!/bin/sh\nprintf \'{"pause": true}\' > "$SLUICE_RESULTS_FILE"\n',
    'pre.sh': '#!/bin/sh\nif [ -e PREFAIL ]; then echo "pre-run failing on purpose"; exit 1; fi\n',
  };
}

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
      repos: { 'org/config': { 'zuul.yaml': PIPELINES }, 'org/app': mqttAppFiles() },
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

  type Build = Record<string, unknown>;
  const byJob = (builds: Build[], name: string): Build => {
    const found = builds.find((build) => build.job_name === name);
    if (!found) {
      throw new Error(`no build of ${name} in ${JSON.stringify(builds)}`);
    }
    return found;
  };

  it('publishes start and success with the topic filled in and the buildset with its builds', async () => {
    const pull = await env.hub.openPull('org/app', { title: 'Add feature', files: { 'feature.txt': 'x\n' } });
    const topic = `${PREFIX}/acme/check/org/app/main/${pull.number}`;
    const start = await message((m) => m.topic === topic && m.body.action === 'start');
    const changeFields = {
      project: 'org/app',
      branch: 'main',
      change: String(pull.number),
      patchset: pull.headSha,
      commit_id: pull.headSha,
      ref: `refs/pull/${pull.number}/head`,
    };
    expect(start.body).toMatchObject({
      tenant: 'acme',
      pipeline: 'check',
      // An independent pipeline's queue is the item's own, without a name (as the reference).
      queue: '',
      ...changeFields,
      message: 'Starting check jobs.',
    });
    expect(start.body.changes).toEqual([
      { ...changeFields, change_url: start.body.change_url, owner: start.body.owner, topic: null },
    ]);
    // The job uuids are the ones kept with the jobs of the frozen graph (queue_item_jobs.frozen).
    const stored = await env.server.database
      .knex('queue_item_jobs')
      .select('job_name', env.server.database.knex.raw("frozen->>'uuid' as uuid"));
    const startJobs = (start.body.buildset as { builds: Build[] }).builds;
    expect(stored.map((row: { uuid: string }) => row.uuid)).toEqual(
      expect.arrayContaining(startJobs.map((each) => each.job_uuid)),
    );
    const success = await message((m) => m.topic === topic && m.body.action === 'success');
    const body = success.body;
    expect(body.uuid).toBe(start.body.uuid);
    expect(body.zuul_ref).toMatch(/^Z[0-9a-f]{32}$/);
    expect(typeof body.enqueue_time).toBe('number');
    expect(typeof body.trigger_time).toBe('number');
    expect(String(body.change_url)).toContain(`/pull/${pull.number}`);
    expect(body.message).toMatch(/unit.*SUCCESS/);
    const buildset = body.buildset as { uuid: string; result: string; builds: Build[]; retry_builds: Build[] };
    expect(buildset.result).toBe('SUCCESS');
    expect(buildset.builds.map((build) => build.job_name).sort()).toEqual(['flaky', 'lint', 'service', 'unit']);
    expect(buildset.retry_builds).toEqual([]);
    const build = byJob(buildset.builds, 'unit');
    expect(build).toMatchObject({ job_name: 'unit', voting: true, result: 'SUCCESS', dependencies: [] });
    expect(build.change).toMatchObject(changeFields);
    expect(build.job_dependencies).toEqual({});
    expect(typeof build.start_time).toBe('number');
    expect(Number(build.end_time)).toBeGreaterThanOrEqual(Number(build.start_time));
    expect(build.web_url).toBe(`https://sluice.example.com/t/acme/build/${String(build.uuid)}`);
    expect(typeof build.log_url).toBe('string');
    expect(build.returned_data).toEqual(expect.any(Object));
    // Job uuids: one per job, the same in each report of the buildset; a dependency names its job's.
    const uuids = buildset.builds.map((each) => each.job_uuid);
    expect(new Set(uuids).size).toBe(4);
    for (const uuid of uuids) {
      expect(uuid).toMatch(/^[0-9a-f]{32}$/);
    }
    const service = byJob(buildset.builds, 'service');
    expect(byJob(buildset.builds, 'lint')).toMatchObject({
      result: 'SUCCESS',
      dependencies: ['unit', 'service'],
      job_dependencies: { unit: build.job_uuid, service: service.job_uuid },
    });
    // Build events: service paused after its run phase, and was resumed once lint had its result.
    expect(build.events).toEqual([]);
    expect(service.result).toBe('SUCCESS');
    const events = service.events as Array<{ event_time: number; event_type: string; description: null }>;
    expect(events.map((event) => [event.event_type, event.description])).toEqual([
      ['paused', null],
      ['resumed', null],
    ]);
    const lint = byJob(buildset.builds, 'lint');
    expect(events[0].event_time).toBeGreaterThanOrEqual(Number(service.start_time));
    expect(events[0].event_time).toBeLessThanOrEqual(Number(lint.start_time));
    expect(events[1].event_time).toBeGreaterThanOrEqual(Number(lint.end_time));
    expect(Number(service.end_time)).toBeGreaterThanOrEqual(events[1].event_time);
    const started = (start.body.buildset as { builds: Build[] }).builds;
    expect(started.map((each) => [each.job_name, each.job_uuid]).sort()).toEqual(
      buildset.builds.map((each) => [each.job_name, each.job_uuid]).sort(),
    );
  });

  it('names the shared queue of a dependent pipeline', async () => {
    const pull = await env.hub.openPull('org/app', { title: 'Queued', files: { 'queued.txt': 'q\n' } });
    const done = await message((m) => m.topic === `${PREFIX}/queued/${pull.number}`);
    expect(done.body).toMatchObject({ action: 'success', pipeline: 'queued', queue: 'integrated' });
  });

  it('publishes a failure to its own topic, with the retried builds', async () => {
    const pull = await env.hub.openPull('org/app', {
      title: 'Break it',
      files: { FAIL: 'yes\n', PREFAIL: 'yes\n' },
    });
    const failure = await message((m) => m.topic === `${PREFIX}/failures` && m.body.change === String(pull.number));
    expect(failure.body.action).toBe('failure');
    const buildset = failure.body.buildset as { result: string; builds: Build[]; retry_builds: Build[] };
    expect(buildset.result).toBe('FAILURE');
    expect(byJob(buildset.builds, 'unit')).toMatchObject({ job_name: 'unit', result: 'FAILURE' });
    expect(byJob(buildset.builds, 'unit')).not.toHaveProperty('returned_data');
    // flaky's pre-run failed twice: its build is RETRY_LIMIT, the first try a retry build.
    const flaky = byJob(buildset.builds, 'flaky');
    expect(flaky.result).toBe('RETRY_LIMIT');
    expect(buildset.retry_builds).toHaveLength(1);
    const [retried] = buildset.retry_builds;
    expect(retried).toMatchObject({ job_name: 'flaky', job_uuid: flaky.job_uuid, voting: true, result: 'RETRY' });
    expect(retried.uuid).not.toBe(flaky.uuid);
    expect(retried.web_url).toBe(`https://sluice.example.com/t/acme/build/${String(retried.uuid)}`);
    expect(typeof retried.start_time).toBe('number');
    expect(typeof retried.log_url).toBe('string');
  });
});
