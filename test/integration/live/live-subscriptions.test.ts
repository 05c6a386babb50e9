/**
 * Live subscriptions against a real server with the real graphql-ws client, driven by the
 * engine with its scripted executor.
 */
import type { Client } from 'graphql-ws';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { startLiveServer, Subscription, subscribersActive, wsClient, type LiveServer } from '../../helpers/live';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { EngineStateRepository } from '../../../src/store/repositories/engine-state';
import { engineEventBusOver } from '../../../subscriptions/live/engine-bridge';
import {
  applyQueueEvent,
  comparable,
  comparableSnapshot,
  modelOf,
  QUEUE_EVENT_FIELDS,
  STATUS_FIELDS,
  type QueueEventView,
  type StatusView,
} from './status-fields';

const layoutSpec = () => ({
  tenant: nextTenant(),
  pipelines: [
    pipeline('check', 'independent', { triggers: [] }),
    pipeline('gate', 'dependent', { triggers: [], submit: true }),
  ],
  projects: [{ name: 'org/project', queue: 'integrated' }],
  jobs: { 'org/project': { check: [job('lint')], gate: [job('unit'), job('integration')] } },
});

const STATUS_QUERY = /* GraphQL */ `query ($tenant: String!) { tenant(name: $tenant) { ... on Tenant { status { ... on TenantStatus { ${STATUS_FIELDS} } } } } }`;
const QUEUE_EVENTS = /* GraphQL */ `subscription ($tenant: String!, $afterSeq: Int, $pipeline: String, $change: String) {
  queueEvents(tenant: $tenant, afterSeq: $afterSeq, pipeline: $pipeline, change: $change) { ${QUEUE_EVENT_FIELDS} }
}`;
const TENANT_STATUS = /* GraphQL */ `subscription ($tenant: String!, $pipeline: String) { tenantStatus(tenant: $tenant, pipeline: $pipeline) { ${STATUS_FIELDS} } }`;

describe('live subscriptions', () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let server: LiveServer;
  const clients: Client[] = [];

  async function status(): Promise<StatusView> {
    const result = await server.graphql<{ tenant: { status: StatusView } }>(STATUS_QUERY, { tenant: h.tenant });
    expect(result.errors).toBeUndefined();
    const view = result.data?.tenant.status;
    if (!view) {
      throw new Error('no status');
    }
    return view;
  }

  function client(token?: string): Client {
    const created = wsClient(server, token);
    clients.push(created);
    return created;
  }

  async function committedSequence(): Promise<number> {
    return (await new EngineStateRepository(db.knex).loadTenant(h.tenant)).busSequence;
  }

  function queueEvents(sub: Subscription<{ queueEvents: QueueEventView }>): QueueEventView[] {
    return sub.results.map((result) => {
      if (!result.data) {
        throw new Error(`subscription error: ${JSON.stringify(result.errors)}`);
      }
      return result.data.queueEvents;
    });
  }

  /** The sequences of the status deltas the engine published. */
  function deltaSequences(): number[] {
    return h.deltas.filter((delta) => delta.type === 'queue-delta').map((delta) => delta.sequence);
  }

  /** The types of the changes received. */
  function changeTypes(sub: Subscription<{ queueEvents: QueueEventView }>): string[] {
    return queueEvents(sub).flatMap((event) => (event.changes ?? []).map((change) => change.__typename));
  }

  /** Wait until the subscriber has seen every status delta the engine published. */
  async function caughtUp(sub: Subscription<{ queueEvents: QueueEventView }>): Promise<void> {
    const target = deltaSequences().pop() ?? 0;
    await sub.until(
      () => queueEvents(sub).some((event) => (event.sequence ?? -1) >= target),
      5000,
      `sequence ${target}`,
    );
  }

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.destroy();
  });

  beforeEach(async () => {
    h = new EngineHarness(db, makeLayout(layoutSpec()));
    await h.start();
    server = await startLiveServer(db, { harness: h, live: { statusIntervalMs: 20 } });
  });

  afterEach(async () => {
    for (const created of clients.splice(0)) {
      await created.dispose();
    }
    await server.stop();
    await h.stop();
    expect(h.errors).toEqual([]);
  });

  it('queueEvents: a gate run applied as deltas to the initial snapshot equals the status query, mid-run and at the end', async () => {
    const snapshot = await status();
    expect(snapshot.pipelines.map((entry) => entry.name)).toEqual(['check', 'gate']);
    const sub = new Subscription<{ queueEvents: QueueEventView }>(client(), QUEUE_EVENTS, {
      tenant: h.tenant,
      afterSeq: snapshot.sequence,
    });

    for (const number of [1, 2, 3]) {
      h.changes.add('org/project', number);
      expect(await h.enqueue('gate', 'org/project', `${number},1`)).toBe('ok');
    }
    await caughtUp(sub);
    let applied = queueEvents(sub).reduce(applyQueueEvent, modelOf(snapshot));
    const midRun = await status();
    expect(comparable(applied, h.clock.now().getTime())).toEqual(comparableSnapshot(midRun));
    expect(midRun.pipelines[1]?.changeQueues).toHaveLength(1);

    await h.executor.finish('unit', 2, { result: 'FAILURE' });
    await h.settle();
    await h.executor.finishAll();
    await h.settle();
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['1,1 gate SUCCESS', '2,1 gate FAILURE', '3,1 gate SUCCESS']);
    await caughtUp(sub);

    const events = queueEvents(sub);
    expect(events.map((event) => event.sequence)).toEqual(
      deltaSequences().filter((sequence) => sequence > snapshot.sequence),
    );
    const types = new Set(changeTypes(sub));
    for (const type of ['ItemEnqueued', 'JobCompleted', 'ItemReported', 'ItemDequeued']) {
      expect(types).toContain(type);
    }
    expect(
      events
        .flatMap((event) => event.changes ?? [])
        .find((change) => change.__typename === 'ItemReported' && change.result === 'FAILURE'),
    ).toBeDefined();
    applied = events.reduce(applyQueueEvent, modelOf(snapshot));
    const final = await status();
    expect(final.sequence).toBe(await committedSequence());
    expect(comparable(applied, h.clock.now().getTime())).toEqual(comparableSnapshot(final));
  });

  it('queueEvents: resumes with afterSeq after a dropped connection, and asks for a re-snapshot when the replay is gone', async () => {
    const snapshot = await status();
    const first = client();
    const sub = new Subscription<{ queueEvents: QueueEventView }>(first, QUEUE_EVENTS, {
      tenant: h.tenant,
      afterSeq: snapshot.sequence,
    });
    h.changes.add('org/project', 1);
    await h.enqueue('gate', 'org/project', '1,1');
    await caughtUp(sub);
    const seen = queueEvents(sub);
    const lastApplied = seen[seen.length - 1]?.sequence ?? snapshot.sequence;
    await first.dispose();

    // Missed while disconnected.
    await h.executor.finishAll();
    await h.settle();
    const committed = await committedSequence();
    expect(committed).toBeGreaterThan(lastApplied);

    const resumed = new Subscription<{ queueEvents: QueueEventView }>(client(), QUEUE_EVENTS, {
      tenant: h.tenant,
      afterSeq: lastApplied,
    });
    await caughtUp(resumed);
    const replayed = queueEvents(resumed).map((event) => event.sequence);
    expect(replayed).toEqual(deltaSequences().filter((sequence) => sequence > lastApplied));
    expect(replayed.length).toBeGreaterThan(0);

    // A server that was not listening when the deltas happened cannot replay them.
    const other = await startLiveServer(db, { harness: h });
    try {
      const lateClient = wsClient(other);
      const late = new Subscription<{ queueEvents: QueueEventView }>(lateClient, QUEUE_EVENTS, {
        tenant: h.tenant,
        afterSeq: 0,
      });
      const [result] = await late.waitFor(1);
      expect(result?.data?.queueEvents).toEqual({
        __typename: 'ResnapshotRequired',
        cause: 'REPLAY_UNAVAILABLE',
        sequence: committed,
      });
      await lateClient.dispose();
    } finally {
      await other.stop();
    }
  });

  it('queueEvents: filters by pipeline and by change', async () => {
    const afterSeq = await committedSequence();
    const byChange = new Subscription<{ queueEvents: QueueEventView }>(client(), QUEUE_EVENTS, {
      tenant: h.tenant,
      change: '2,1',
      afterSeq,
    });
    const byPipeline = new Subscription<{ queueEvents: QueueEventView }>(client(), QUEUE_EVENTS, {
      tenant: h.tenant,
      pipeline: 'check',
      afterSeq,
    });
    h.changes.add('org/project', 1);
    h.changes.add('org/project', 2);
    await h.enqueue('gate', 'org/project', '1,1');
    await h.enqueue('gate', 'org/project', '2,1');
    await h.enqueue('check', 'org/project', '1,1');
    const target = await committedSequence();
    // The pipeline subscriber sees only check changes; the change subscriber only item 2's.
    const changes = (sub: Subscription<{ queueEvents: QueueEventView }>) =>
      queueEvents(sub).flatMap((event) => event.changes ?? []);
    await byPipeline.until(() => changeTypes(byPipeline).includes('ItemEnqueued'));
    expect(changes(byPipeline).every((change) => change.pipeline === 'check' || change.pipeline === null)).toBe(true);
    await byChange.until(() => changeTypes(byChange).includes('ItemEnqueued'));
    const enqueued = changes(byChange).filter((change) => change.__typename === 'ItemEnqueued');
    expect(
      enqueued.map((change) => (change.item as { refs: Array<{ id: string }> }).refs.map((ref) => ref.id)),
    ).toEqual([['2,1']]);
    expect(changes(byChange).every((change) => change.pipeline === 'gate')).toBe(true);
    expect(target).toBeGreaterThan(0);
  });

  it('tenantStatus: emits the status at once and again after changes, with the sequence', async () => {
    const sub = new Subscription<{ tenantStatus: StatusView }>(client(), TENANT_STATUS, {
      tenant: h.tenant,
      pipeline: 'gate',
    });
    const [initial] = await sub.waitFor(1);
    expect(initial?.errors).toBeUndefined();
    expect(initial?.data?.tenantStatus.pipelines.map((entry) => entry.name)).toEqual(['gate']);
    h.changes.add('org/project', 1);
    await h.enqueue('gate', 'org/project', '1,1');
    const committed = await committedSequence();
    await sub.until(() =>
      sub.results.some(
        (result) =>
          (result.data?.tenantStatus.sequence ?? -1) >= committed - 1 && JSON.stringify(result.data).includes('"1,1"'),
      ),
    );
    const latest = sub.results[sub.results.length - 1]?.data?.tenantStatus;
    expect(JSON.stringify(latest)).toContain('"unit"');
  });

  it("authorization: unknown tenants are refused at subscribe, another tenant's events never arrive, revoked access ends the feed", async () => {
    const refused = new Subscription(client(), QUEUE_EVENTS, { tenant: 'no-such-tenant' });
    const [denied] = await refused.waitFor(1);
    expect(denied?.errors?.[0]).toMatchObject({ message: 'Permission denied', extensions: { code: 'FORBIDDEN' } });

    const other = new EngineHarness(db, makeLayout(layoutSpec()));
    await other.start();
    const readable = new Set([h.tenant, other.tenant]);
    const shared = await startLiveServer(db, {
      harness: h,
      tenants: { tenantNames: () => [...readable], layout: () => undefined },
    });
    try {
      const forward = engineEventBusOver(shared.app.bus, () => undefined);
      const stopOther = other.bus.subscribe(other.tenant, (delta) => forward.publish(delta));
      const sharedClient = wsClient(shared);
      const mine = new Subscription<{ queueEvents: QueueEventView }>(sharedClient, QUEUE_EVENTS, {
        tenant: h.tenant,
        afterSeq: await committedSequence(),
      });
      const theirs = new Subscription<{ queueEvents: QueueEventView }>(sharedClient, QUEUE_EVENTS, {
        tenant: other.tenant,
        afterSeq: 0,
      });
      // Both subscriptions are registered before the enqueues: the hub then hands each every
      // delta after its start (an enqueue that committed before would be covered by a re-snapshot).
      await subscribersActive(shared, { delta: 2 });
      other.changes.add('org/project', 7);
      await other.enqueue('gate', 'org/project', '7,1');
      await theirs.until(() => changeTypes(theirs).includes('ItemEnqueued'));
      h.changes.add('org/project', 8);
      await h.enqueue('gate', 'org/project', '8,1');
      await mine.until(() => changeTypes(mine).includes('ItemEnqueued'));
      const deltasOf = (sub: Subscription<{ queueEvents: QueueEventView }>) =>
        queueEvents(sub).filter((event) => event.__typename === 'QueueDelta');
      expect(deltasOf(mine).every((event) => event.tenant === h.tenant)).toBe(true);
      expect(deltasOf(theirs).every((event) => event.tenant === other.tenant)).toBe(true);

      // Access to the tenant is withdrawn: the next event ends the subscription with an error.
      readable.delete(h.tenant);
      await h.executor.finishAll();
      await h.settle();
      await mine.until(() => mine.completed);
      expect(mine.results[mine.results.length - 1]?.errors?.[0]?.message).toMatch(/Not authorized/);
      stopOther();
      theirs.close();
      await sharedClient.dispose();
    } finally {
      await shared.stop();
      await other.stop();
    }
  });
});
