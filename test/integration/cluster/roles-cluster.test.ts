/**
 * Roles as processes (docs/operations.md#running-a-cluster): two api, two scheduler and two
 * executor processes and one launcher, each a real `sluice serve --roles ...`, on one PostgreSQL
 * database (its own), with the event bus on Redis (a channel prefix of its own) and, in a second
 * run, on PostgreSQL NOTIFY. Four changes are
 * enqueued into gate through both API processes (GraphQL on one, REST on the other); change 1's
 * unit job waits for a release file while its console is streamed through both API processes.
 * Then: every change was queued, tested, reported and merged exactly once (store and git), the
 * builds ran in the executor processes, a live subscription on one API process saw every item
 * enqueued and reported and the waiting build start, the status and system events pushed by the other showed the
 * queue and each enqueue once, and both API processes serve the log file from the shared log
 * root. One executor takes its role from the `roles` key; the launcher's `--roles` overrides it.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { git } from '../../../src/sources/git-cli';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { GateDeployment, PROJECT, TENANT } from '../../helpers/gate-deployment';
import type { FileSpec } from '../../helpers/git-fixtures';
import { adminToken, Subscription } from '../../helpers/live';
import { waitFor } from '../../helpers/recovery-deployment';
import { startRoleProcess, type RoleProcess } from '../../helpers/role-process';
import { describeIf, MULTI_PROCESS } from '../../helpers/preconditions';

const withPostgres = describeIf(MULTI_PROCESS);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const CHANGES = [1, 2, 3, 4];

jest.setTimeout(420_000);

/**
 * One change of a `QueueDelta` (docs/live.md): the kinds this test follows. A job change is sent
 * only when it touches a selected field (docs/live.md): `startTime` for JobStarted.
 */
interface QueueChange {
  __typename: string;
  itemId?: string;
  item?: { id: string; refs: Array<{ id: string }> };
  job?: { name: string; uuid: string | null; result?: string | null };
  result?: string | null;
}

type QueueEvent = { __typename: 'QueueDelta'; sequence: number; changes: QueueChange[] } | { __typename: string };

const QUEUE_EVENTS = /* GraphQL */ `
  subscription ($tenant: String!) {
    queueEvents(tenant: $tenant, pipeline: "gate") {
      __typename
      ... on QueueDelta {
        sequence
        changes {
          __typename
          ... on ItemEnqueued {
            item {
              id
              refs {
                id
              }
            }
          }
          ... on JobStarted {
            itemId
            job {
              name
              uuid
              startTime
            }
          }
          ... on JobCompleted {
            itemId
            job {
              name
              uuid
              result
            }
          }
          ... on ItemReported {
            itemId
            result
          }
        }
      }
    }
  }
`;

const TENANT_STATUS = /* GraphQL */ `
  subscription ($tenant: String!) {
    tenantStatus(tenant: $tenant, pipeline: "gate") {
      pipelines {
        name
        changeQueues {
          heads {
            id
          }
        }
      }
    }
  }
`;

const SYSTEM_EVENTS = /* GraphQL */ `
  subscription ($tenant: String!) {
    systemEvents(tenant: $tenant, types: [ENQUEUED]) {
      eventType
      description
    }
  }
`;

const CONSOLE_LOG = /* GraphQL */ `
  subscription ($tenant: String!, $uuid: String!) {
    consoleLog(tenant: $tenant, uuid: $uuid) {
      lines {
        seq
        text
      }
    }
  }
`;

/** Change 1's unit job: prints, waits for the release file, then runs the original test. */
function holdingUnitScript(release: string): string {
  return `#!/bin/sh
set -e
echo "cluster console: started"
while [ ! -f "${release}" ]; do sleep 0.1; done
echo "cluster console: released"
output=$(sh ./hello.sh Sluice)
test "$output" = "Hello, Sluice!"
echo "unit tests passed"
`;
}

/** The REST console-stream WebSocket of `base`: resolves with the whole text and the close. */
function consoleStream(
  base: string,
  uuid: string,
  onText: (text: string) => void,
): Promise<{ text: string; code: number; reason: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/api/tenant/${TENANT}/console-stream`);
    let text = '';
    ws.on('open', () => ws.send(JSON.stringify({ uuid, logfile: 'console.log', token: adminToken(TENANT) })));
    ws.on('message', (data) => {
      text += data.toString();
      onText(text);
    });
    ws.on('error', reject);
    ws.on('close', (code, reason) => resolve({ text, code, reason: reason.toString() }));
  });
}

function wsClient(base: string): Client {
  return createClient({
    url: `${base.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    connectionParams: { authorization: `Bearer ${adminToken(TENANT)}` },
  });
}

/** The value of an unlabelled-or-labelled gauge line in a Prometheus scrape (0 when absent). */
async function gauge(base: string, series: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

withPostgres('a cluster of role processes on one PostgreSQL database', () => {
  let deployment: GateDeployment;
  let database: TestDatabase;
  let processes: RoleProcess[] = [];
  let clients: Client[] = [];

  beforeEach(async () => {
    deployment = await GateDeployment.create('sluice-roles');
    database = await createTestDatabase({ migrate: false });
    processes = [];
    clients = [];
  });

  afterEach(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await Promise.all(processes.map((child) => child.stop()));
    await database.destroy();
    deployment.cleanup();
  });

  // The bus fans the schedulers' deltas out to the API processes: Redis pub/sub, or PostgreSQL NOTIFY without it.
  it.each([
    ['Redis', { redis: { url: REDIS_URL, channelPrefix: `sluice-roles-${process.pid}-${Date.now()}:` } }],
    ['PostgreSQL NOTIFY', {}],
  ])('on %s: gates every change once, with live views and consoles across processes', async (_bus, busConfig) => {
    const logsDir = path.join(deployment.root, 'shared-logs');
    const release = path.join(deployment.root, 'release');
    const common = {
      ...busConfig,
      logs: { dir: logsDir },
      executor: { slots: 2, pollInterval: 0.2 },
      components: { heartbeatInterval: 1, expiry: 600 },
      shutdownTimeout: 5,
    };
    const start = async (
      name: string,
      roles: string | undefined,
      extra: Record<string, unknown> = {},
    ): Promise<RoleProcess> => {
      const file = deployment.configFile(name, database.url ?? '', { ...common, ...extra });
      const child = await startRoleProcess(name, file, roles);
      processes.push(child);
      return child;
    };
    // All at once: the processes take turns at the migrations.
    const [apiA, apiB] = await Promise.all([start('api-a', 'api'), start('api-b', 'api')]);
    // Links written by processes without the api role point at an API process.
    const linked = { api: { publicUrl: apiA.base } };
    const [schedulerA, schedulerB, executorA, executorB, launcher] = await Promise.all([
      start('scheduler-a', 'scheduler', linked),
      start('scheduler-b', 'scheduler', linked),
      start('executor-a', 'executor', linked),
      // The roles key alone; and a roles key that the command line overrides.
      start('executor-b', undefined, { ...linked, roles: ['executor'] }),
      start('launcher', 'launcher', { ...linked, roles: ['api'] }),
    ]);

    // Each process registered the components of its roles only.
    const components: Array<{ id: string; kind: string; pid: number }> = await database
      .knex('components')
      .where('state', 'running')
      .select('id', 'kind', 'pid');
    const kindsOf = (child: RoleProcess): string[] =>
      components
        .filter((row) => row.pid === child.child.pid)
        .map((row) => row.kind)
        .sort();
    expect([apiA, apiB, schedulerA, schedulerB, executorA, executorB, launcher].map(kindsOf)).toEqual([
      ['api'],
      ['api'],
      ['scheduler'],
      ['scheduler'],
      ['executor'],
      ['executor'],
      ['launcher'],
    ]);
    const executorIds = new Set(components.filter((row) => row.kind === 'executor').map((row) => row.id));

    // A process without the api role serves health and metrics only.
    expect((await fetch(`${executorA.base}/health/ready`)).status).toBe(200);
    expect((await fetch(`${executorA.base}/graphql?query=%7B__typename%7D`)).status).toBe(404);
    expect(await gauge(executorA.base, 'sluice_executor_slots')).toBe(2);
    expect(await gauge(apiA.base, 'sluice_executor_slots')).toBe(0);
    // Only scheduler processes name the tenants they lead or stand by for.
    const readiness = async (child: RoleProcess): Promise<Record<string, unknown>> =>
      (await (await fetch(`${child.base}/health/ready`)).json()) as Record<string, unknown>;
    expect((await readiness(apiA)).leadership).toBeUndefined();
    const leads = [await readiness(schedulerA), await readiness(schedulerB)].map(
      (body) => (body.leadership as Record<string, { leading: boolean }>)[TENANT].leading,
    );
    expect(leads.sort()).toEqual([false, true]);

    // Live views on both API processes before anything happens.
    const clientB = wsClient(apiB.base);
    const clientA = wsClient(apiA.base);
    clients.push(clientA, clientB);
    const events = new Subscription<{ queueEvents: QueueEvent }>(clientB, QUEUE_EVENTS, { tenant: TENANT });
    const status = new Subscription<{
      tenantStatus: { pipelines: Array<{ name: string; changeQueues: Array<{ heads: unknown[] }> }> };
    }>(clientA, TENANT_STATUS, { tenant: TENANT });
    const systemEvents = new Subscription<{ systemEvents: { eventType: string; description: string } }>(
      clientA,
      SYSTEM_EVENTS,
      { tenant: TENANT },
    );
    await status.waitFor(1, 30_000);
    for (const [api, kind, subscription] of [
      [apiB, 'queue-events', events],
      [apiA, 'system-events', systemEvents],
    ] as const) {
      await waitFor(`the ${kind} subscription on ${api.name}`, async () => {
        expect(subscription.results.flatMap((result) => result.errors ?? [])).toEqual([]);
        return (await gauge(api.base, `sluice_subscriptions_open{kind="${kind}"}`)) >= 1;
      });
    }

    const shas = new Map<number, string>();
    for (const change of CHANGES) {
      const files: FileSpec =
        change === 1 ? { 'scripts/unit.sh': { content: holdingUnitScript(release), executable: true } } : {};
      shas.set(change, await deployment.pushChange(change, files));
    }
    // Changes 1 and 3 through GraphQL on api-a, 2 and 4 through REST on api-b.
    for (const change of CHANGES) {
      if (change % 2 === 1) {
        await deployment.enqueue(apiA.base, change);
      } else {
        const response = await fetch(`${apiB.base}/api/tenant/${TENANT}/project/${PROJECT}/enqueue`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken(TENANT)}` },
          body: JSON.stringify({ change: `${change},1`, pipeline: 'gate' }),
        });
        expect({ status: response.status, body: await response.json() }).toEqual({ status: 200, body: true });
      }
    }

    // The changes of every delta received (a ResnapshotRequired carries none).
    const queueEvents = (): QueueChange[] =>
      events.results.flatMap((result) => {
        const event = result.data?.queueEvents;
        return event !== undefined && 'changes' in event ? event.changes : [];
      });
    const itemOf = (change: number): string | undefined =>
      queueEvents().find(
        (event) => event.__typename === 'ItemEnqueued' && event.item?.refs.some((ref) => ref.id === `${change},1`),
      )?.item?.id;
    // Change 1's unit build, seen starting by the subscription on api-b.
    await events
      .until(
        () =>
          queueEvents().some(
            (event) =>
              event.__typename === 'JobStarted' && event.itemId === itemOf(1) && event.job?.name === 'hello-unit',
          ),
        180_000,
        "change 1's hello-unit build to start",
      )
      .catch((err: unknown) => {
        throw new Error(`${String(err)}; item ${itemOf(1)}; received ${JSON.stringify(events.results).slice(0, 3000)}`);
      });
    const unitBuild =
      queueEvents().find(
        (event) => event.__typename === 'JobStarted' && event.itemId === itemOf(1) && event.job?.name === 'hello-unit',
      )?.job?.uuid ?? '';
    // The status pushed by api-a shows the items in the gate.
    await status.until(
      () =>
        status.results.some((result) =>
          result.data?.tenantStatus.pipelines.some((pipeline) =>
            pipeline.changeQueues.some((queue) => queue.heads.length > 0),
          ),
        ),
      60_000,
      'a status push with items in gate',
    );

    // The console of that build through both API processes: the REST stream on api-a, consoleLog on api-b.
    let sawStart: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      sawStart = resolve;
    });
    const streamed = consoleStream(apiA.base, unitBuild, (text) => {
      if (text.includes('| cluster console: started\n')) {
        sawStart();
      }
    });
    await started;
    const consoleLog = new Subscription<{ consoleLog: { lines: Array<{ seq: number; text: string }> } }>(
      clientB,
      CONSOLE_LOG,
      { tenant: TENANT, uuid: unitBuild },
    );
    await consoleLog.until(
      () => consoleLog.results.some((result) => result.data?.consoleLog.lines.some((line) => line.seq === 1)),
      30_000,
      'the first console line on api-b',
    );
    writeFileSync(release, '');
    const { text, code, reason } = await streamed;
    expect({ code, reason }).toEqual({ code: 1000, reason: 'No more data' });
    expect(text).toContain('| cluster console: released\n');
    await consoleLog.until(() => consoleLog.completed, 30_000, 'consoleLog to complete');
    const logLines = consoleLog.results.flatMap((result) => result.data?.consoleLog.lines ?? []);
    expect(logLines.map((line) => `${line.text}\n`).join('')).toBe(text);
    expect(logLines.map((line) => line.seq)).toEqual(logLines.map((_, index) => index + 1));

    // Every item reported, seen live on api-b.
    await events.until(
      () => queueEvents().filter((event) => event.__typename === 'ItemReported').length >= CHANGES.length,
      240_000,
      'every change reported',
    );
    const reported = queueEvents().filter((event) => event.__typename === 'ItemReported');
    expect(reported.map((event) => event.result)).toEqual(CHANGES.map(() => 'SUCCESS'));
    expect(new Set(reported.map((event) => event.itemId))).toEqual(new Set(CHANGES.map(itemOf)));

    // api-a's system events: the scheduler process recorded each enqueue once.
    await systemEvents.until(() => systemEvents.results.length >= CHANGES.length, 30_000, 'four ENQUEUED events');
    expect(systemEvents.results.map((result) => result.data?.systemEvents.eventType)).toEqual(
      CHANGES.map(() => 'ENQUEUED'),
    );

    // The store: each change queued once, one buildset, one build per job, reported once; merged once.
    expect(await deployment.gateOutcome(database.knex, CHANGES)).toEqual(
      CHANGES.map((change) => ({ change, items: 1, buildsets: ['SUCCESS'], duplicateBuilds: 0 })),
    );
    const subjects = (await git(deployment.bareRepo, ['log', '--format=%s', 'refs/heads/master'])).stdout.split('\n');
    for (const change of CHANGES) {
      expect(await deployment.merged(shas.get(change) ?? '')).toBe(true);
      expect(subjects.filter((subject) => subject === `Notes ${change}`)).toHaveLength(1);
    }

    // Every build of the gate ran in one of the executor processes; the completions seen live are
    // among them. (A job that completes in the pass that reports its item is not sent as a
    // JobCompleted: the item leaves the queue in that pass, docs/live.md; so there may be none.)
    const gateBuilds: string[] = await database
      .knex('builds')
      .join('buildsets', 'buildsets.id', 'builds.buildset_id')
      .where({ 'buildsets.tenant': TENANT, 'buildsets.pipeline': 'gate' })
      .pluck('builds.uuid');
    expect(gateBuilds).toHaveLength(CHANGES.length * 2);
    const workers: string[] = await database.knex('build_requests').whereIn('build_uuid', gateBuilds).pluck('worker');
    expect(workers).toHaveLength(gateBuilds.length);
    expect(workers.every((worker) => executorIds.has(worker))).toBe(true);
    const completed = queueEvents().filter((event) => event.__typename === 'JobCompleted');
    for (const event of completed) {
      expect({ result: event.job?.result, known: gateBuilds.includes(event.job?.uuid ?? '') }).toEqual({
        result: 'SUCCESS',
        known: true,
      });
    }

    // The log file, from the shared log root, through both API processes; its link names api-a.
    const build = (await (await fetch(`${apiB.base}/api/tenant/${TENANT}/build/${unitBuild}`)).json()) as {
      log_url: string;
    };
    expect(build.log_url.startsWith(`${apiA.base}/logs/`)).toBe(true);
    for (const api of [apiA, apiB]) {
      const response = await fetch(`${build.log_url.replace(apiA.base, api.base).replace(/\/?$/, '/')}job-output.txt`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(text);
    }
    events.close();
    status.close();
    systemEvents.close();
    await Promise.all(clients.splice(0).map((client) => client.dispose()));

    // Every process stops cleanly.
    await Promise.all(processes.map((child) => child.stopCleanly()));
  });
});
