/**
 * docs/live.md#the-delta-protocol: a client that takes one status snapshot and applies the
 * `queueEvents` deltas rebuilds the exact status, on a long random run (seeded: set
 * `SLUICE_REPLAY_SEED` to replay a failure) with enqueues into an independent and a dependent
 * pipeline, successes and failures (gate resets), dequeues, promotes, event-queue state changes
 * and a dropped connection resumed with `afterSeq`; started builds get estimates from the history
 * the run writes.
 */
import type { Client } from 'graphql-ws';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { startLiveServer, Subscription, wsClient, type LiveServer } from '../../helpers/live';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { job, makeLayout, pipeline } from '../../engine/scripted-layout';
import type { LiveModel } from '../../../web/src/status/apply-delta';
import {
  QUEUE_EVENT_FIELDS,
  STATUS_FIELDS,
  applyQueueEvent,
  comparable,
  comparableSnapshot,
  modelOf,
  type QueueEventView,
  type StatusView,
} from './status-fields';

const SEED = Number(process.env.SLUICE_REPLAY_SEED ?? 20_261_125);
const STEPS = 140;

/** mulberry32: a small seeded generator. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STATUS_QUERY = /* GraphQL */ `query ($tenant: String!) { tenant(name: $tenant) { ... on Tenant { status { ... on TenantStatus { ${STATUS_FIELDS} } } } } }`;
const QUEUE_EVENTS = /* GraphQL */ `subscription ($tenant: String!, $afterSeq: Int) {
  queueEvents(tenant: $tenant, afterSeq: $afterSeq) { ${QUEUE_EVENT_FIELDS} }
}`;

describe(`queue deltas replay to the exact status (seed ${SEED})`, () => {
  let db: TestDatabase;
  let h: EngineHarness;
  let server: LiveServer;

  beforeAll(async () => {
    db = await createTestDatabase();
    h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [
          pipeline('check', 'independent', { triggers: [] }),
          pipeline('gate', 'dependent', {
            triggers: [],
            submit: true,
            // A small window: items wait outside it and become active as it grows and shrinks.
            window: {
              window: 2,
              floor: 1,
              ceiling: 4,
              increaseType: 'linear',
              increaseFactor: 1,
              decreaseType: 'exponential',
              decreaseFactor: 2,
            },
          }),
        ],
        projects: [
          { name: 'org/server', queue: 'integrated' },
          { name: 'org/client', queue: 'integrated' },
          { name: 'org/docs' },
        ],
        jobs: {
          'org/server': {
            check: [job('lint')],
            gate: [job('unit'), job('integration', { dependencies: [{ name: 'unit', soft: false }] })],
          },
          'org/client': { check: [job('lint')], gate: [job('unit')] },
          'org/docs': { check: [job('build-docs')], gate: [job('build-docs')] },
        },
      }),
    );
    await h.start();
    server = await startLiveServer(db, { harness: h });
  });

  afterAll(async () => {
    await server.stop();
    await h.stop();
    await db.destroy();
  });

  async function status(): Promise<StatusView> {
    const result = await server.graphql<{ tenant: { status: StatusView } }>(STATUS_QUERY, { tenant: h.tenant });
    const view = result.data?.tenant.status;
    if (!view) {
      throw new Error(`no status: ${JSON.stringify(result.errors)}`);
    }
    return view;
  }

  /** The sequence of the last status delta the engine published. */
  function lastDeltaSequence(): number {
    const deltas = h.deltas.filter((delta) => delta.type === 'queue-delta');
    return deltas[deltas.length - 1]?.sequence ?? -1;
  }

  it('rebuilds the status at every checkpoint and at the end, across a resumed connection', async () => {
    const next = random(SEED);
    const pick = <T>(list: readonly T[]): T | undefined => list[Math.floor(next() * list.length)];
    let model: LiveModel = modelOf(await status());
    let client: Client = wsClient(server);
    let sub = new Subscription<{ queueEvents: QueueEventView }>(client, QUEUE_EVENTS, {
      tenant: h.tenant,
      afterSeq: model.sequence,
    });
    let consumed = 0;
    const kinds = new Map<string, number>();

    /** Apply what arrived; wait until the model has the engine's last status delta. */
    const catchUp = async (): Promise<void> => {
      const target = lastDeltaSequence();
      const drain = (): boolean => {
        for (; consumed < sub.results.length; consumed += 1) {
          const result = sub.results[consumed];
          const event = result.data?.queueEvents;
          if (!event) {
            throw new Error(`subscription error: ${JSON.stringify(result.errors)}`);
          }
          expect(event.__typename).toBe('QueueDelta');
          for (const change of event.changes ?? []) {
            kinds.set(change.__typename, (kinds.get(change.__typename) ?? 0) + 1);
          }
          model = applyQueueEvent(model, event);
        }
        return model.sequence >= target;
      };
      await sub.until(drain, 10_000, `sequence ${target}`);
    };
    // Build-time estimates (read from the history the run writes) are part of what is replayed.
    let estimates = 0;
    const check = async (): Promise<void> => {
      await catchUp();
      const snapshot = await status();
      estimates += JSON.stringify(snapshot).match(/"estimatedTime":\d/g)?.length ?? 0;
      expect(snapshot.sequence).toBeGreaterThanOrEqual(model.sequence);
      expect(comparable(model, h.clock.now().getTime())).toEqual(comparableSnapshot(snapshot));
    };

    const changes: Array<{ project: string; number: number; pipeline: string }> = [];
    let number = 0;
    for (let step = 1; step <= STEPS; step += 1) {
      h.clock.advance(Math.floor(next() * 5000));
      const roll = next();
      if (roll < 0.35) {
        number += 1;
        const project = pick(['org/server', 'org/client', 'org/docs']) as string;
        const target = next() < 0.7 ? 'gate' : 'check';
        h.changes.add(project, number);
        changes.push({ project, number, pipeline: target });
        await h.enqueue(target, project, `${number},1`);
      } else if (roll < 0.65) {
        const running = [...h.executor.running.values()];
        const build = pick(running);
        if (build) {
          const result = next() < 0.8 ? 'SUCCESS' : 'FAILURE';
          await h.executor.finish(build.job.name, build.changes[0].number ?? undefined, {
            result,
            durationMs: Math.floor(next() * 60_000),
          });
        }
      } else if (roll < 0.72) {
        const victim = pick(changes.filter((change) => change.pipeline === 'gate'));
        if (victim) {
          await h.engine.dequeue(h.tenant, {
            pipeline: 'gate',
            project: victim.project,
            change: `${victim.number},1`,
            by: 'admin',
          });
        }
      } else if (roll < 0.8) {
        const promoted = pick(changes.filter((change) => change.pipeline === 'gate'));
        if (promoted) {
          await h.engine.promote(h.tenant, { pipeline: 'gate', changes: [`${promoted.number},1`], by: 'admin' });
        }
      } else if (roll < 0.85) {
        await h.engine.setTenantState(h.tenant, {
          triggerQueuePaused: next() < 0.5,
          reason: `step ${step}`,
        });
      }
      await h.settle();

      if (step === 70) {
        // A dropped connection: changes happen meanwhile, then the client resumes from its sequence.
        await catchUp();
        await client.dispose();
        h.changes.add('org/server', 1000);
        await h.enqueue('gate', 'org/server', '1000,1');
        await h.executor.finishAll();
        await h.settle();
        client = wsClient(server);
        sub = new Subscription<{ queueEvents: QueueEventView }>(client, QUEUE_EVENTS, {
          tenant: h.tenant,
          afterSeq: model.sequence,
        });
        consumed = 0;
      }
      if (step % 20 === 0) {
        await check();
      }
    }
    await h.executor.finishAll();
    await h.settle();
    await check();
    await client.dispose();
    // The run went through every kind of change the engine makes in it.
    const expected = [
      'TenantChanged',
      'QueueChanged',
      'QueueRemoved',
      'ItemEnqueued',
      'ItemMoved',
      'ItemDequeued',
      'ItemChanged',
      'JobCompleted',
      'ItemReported',
    ];
    expect({ missing: expected.filter((kind) => !kinds.has(kind)), seen: Object.fromEntries(kinds) }).toMatchObject({
      missing: [],
    });
    expect(estimates).toBeGreaterThan(0);
    expect(h.errors).toEqual([]);
  }, 240_000);
});
