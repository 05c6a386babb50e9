/**
 * A small, known history for the analytics page's end-to-end test, written through the store's
 * writers (the rollup triggers of migration 0025 sum it as they would a real gate's): two UTC days
 * (`day` = two days before today, and the day after it) of builds of `hello-unit` and
 * `hello-lint`, items that left the gate, gate resets with their causes, a node request, nodes in
 * use and a flaky-retry event. `EXPECTED` is what docs/analytics.md says the page must show for it.
 */
import type { Knex } from 'knex';
import { BuildRepository } from '../../src/store/repositories/builds';
import { BuildsetRepository } from '../../src/store/repositories/buildsets';
import { AnalyticsRepository } from '../../src/store/repositories/analytics';
import { NodeRepository } from '../../src/store/repositories/nodes';
import { NodesetRequestRepository } from '../../src/store/repositories/nodeset-requests';
import { SystemEventRepository } from '../../src/store/repositories/system-events';
import type { BuildResult } from '../../src/model/results';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface SeededHistory {
  /** Start of the first seeded UTC day (epoch ms). */
  day: number;
}

/** Two days before today, 00:00 UTC. */
export function seededDay(now = Date.now()): number {
  return Math.floor(now / DAY) * DAY - 2 * DAY;
}

export async function seedAnalyticsHistory(
  knex: Knex,
  tenant: string,
  project: { name: string; canonical: string },
): Promise<SeededHistory> {
  const day = seededDay();
  const next = day + DAY;
  const buildsets = new BuildsetRepository(knex);
  const builds = new BuildRepository(knex);
  let serial = 0;
  /** One build in its own buildset for change `change`, ending at `end` after `seconds`. */
  const run = async (
    job: string,
    change: number,
    result: BuildResult,
    end: number,
    seconds: number,
    options: { final?: boolean; buildsetResult?: 'SUCCESS' | 'FAILURE' } = {},
  ): Promise<string> => {
    serial += 1;
    const { buildset, refs } = await buildsets.create({
      uuid: `seed-buildset-${serial}`,
      tenant,
      pipeline: 'gate',
      refs: [
        {
          project: project.name,
          projectCanonical: project.canonical,
          ref: `refs/changes/${change % 100}/${change}/1`,
          change,
          patchset: '1',
          branch: 'master',
        },
      ],
      triggeredBy: 'seed',
      at: new Date(end - seconds * 1000),
    });
    const uuid = `seed${String(serial).padStart(28, '0')}`;
    const build = await builds.start({
      buildsetId: buildset.id,
      uuid,
      jobName: job,
      startTime: new Date(end - seconds * 1000),
      refId: refs[0].id,
    });
    await builds.complete(build.id, { result, endTime: new Date(end), final: options.final ?? true });
    await buildsets.finish(buildset.id, {
      result: options.buildsetResult ?? (result === 'SUCCESS' ? 'SUCCESS' : 'FAILURE'),
      message: null,
      at: new Date(end),
    });
    return uuid;
  };

  // Day 1, 10:00 to 11:00 UTC: ten successful hello-unit runs of 100, 110, ..., 190 s, then two
  // failed runs of 50 s; the second failure is on change 1000 whose run had passed: flaky.
  for (let i = 0; i < 10; i += 1) {
    await run('hello-unit', 1000 + i, 'SUCCESS', day + 10 * HOUR + i * 60_000, 100 + 10 * i);
  }
  await run('hello-unit', 1100, 'FAILURE', day + 10 * HOUR + 20 * 60_000, 50);
  await run('hello-unit', 1000, 'FAILURE', day + 10 * HOUR + 30 * 60_000, 50);
  // Day 2, 14:00 UTC: five hello-unit runs of 200 to 240 s, five hello-lint runs of 30 s, and a
  // failed hello-unit run retried in place as known-flaky (not final).
  for (let i = 0; i < 5; i += 1) {
    await run('hello-unit', 2000 + i, 'SUCCESS', next + 14 * HOUR + i * 60_000, 200 + 10 * i);
    await run('hello-lint', 2000 + i, 'SUCCESS', next + 14 * HOUR + i * 60_000, 30);
  }
  const retried = await run('hello-unit', 2100, 'FAILURE', next + 14 * HOUR + 10 * 60_000, 60, { final: false });
  await new SystemEventRepository(knex).record({
    tenant,
    eventType: 'flaky-retry',
    description: `Job hello-unit of ${project.canonical} failed; its flake rate is 8.3%, so it is retried in place (flaky retry 1)`,
    eventTime: new Date(next + 14 * HOUR + 10 * 60_000),
    data: {
      pipeline: 'gate',
      itemUuid: 'seed-item-retried',
      job: 'hello-unit',
      buildUuid: retried,
      flakeRate: 1 / 12,
      retry: 1,
    },
  });

  // Items that left the gate: day 1 at 10:00, merged after 20 and 40 min, failed after 30 min;
  // day 2 at 14:00, merged after 10 min.
  const items: Array<[number, number, 'SUCCESS' | 'FAILURE']> = [
    [day + 10 * HOUR, 20, 'SUCCESS'],
    [day + 10 * HOUR, 40, 'SUCCESS'],
    [day + 10 * HOUR, 30, 'FAILURE'],
    [next + 14 * HOUR, 10, 'SUCCESS'],
  ];
  await knex('queue_items').insert(
    items.map(([enqueued, minutes, result], i) => ({
      uuid: `seed-item-${i}`,
      tenant,
      pipeline: 'gate',
      queue_id: null,
      position: 0,
      changes: JSON.stringify([{ project: project.canonical, change: 3000 + i, patchset: '1' }]),
      live: true,
      state: 'reported',
      enqueue_time: new Date(enqueued),
      dequeue_time: new Date(enqueued + minutes * 60_000),
      dequeue_reason: 'reported',
      data: JSON.stringify({ dequeueReason: { kind: 'reported', result } }),
    })),
  );

  // Gate resets: day 1, two for a failure ahead and one for a promotion; day 2, one failed merge.
  const analytics = new AnalyticsRepository(knex);
  const resets: Array<[number, 'item-ahead-failed' | 'promoted' | 'merge-failed']> = [
    [day + 10 * HOUR + 25 * 60_000, 'item-ahead-failed'],
    [day + 10 * HOUR + 25 * 60_000, 'item-ahead-failed'],
    [day + 10 * HOUR + 45 * 60_000, 'promoted'],
    [next + 14 * HOUR + 5 * 60_000, 'merge-failed'],
  ];
  for (const [at, cause] of resets) {
    await analytics.recordGateReset({
      tenant,
      pipeline: 'gate',
      project: project.canonical,
      itemUuid: 'seed-item-0',
      cause,
      causedBy: 'seed-item-2',
      at: new Date(at),
    });
  }

  // A node request fulfilled after 45 s; a `small` node in use 2 h on day 1, a `large` one 30 min on day 2.
  const requests = new NodesetRequestRepository(knex);
  const requested = new Date(day + 9 * HOUR);
  await requests.create({
    uuid: 'seed-request',
    tenant,
    pipelineName: 'gate',
    buildsetUuid: null,
    jobName: 'hello-unit',
    project: project.canonical,
    alternatives: [['small']],
    priority: 200,
    relativePriority: 0,
    zuulEventId: null,
    imageNames: null,
    imageUploadUuid: null,
    preferredProvider: null,
    requestTime: requested,
  });
  await requests.update('seed-request', { state: 'fulfilled' }, new Date(requested.getTime() + 45_000));
  const nodes = new NodeRepository(knex);
  const uses: Array<[string, number, number]> = [
    ['small', day + 9 * HOUR, 120],
    ['large', next + 14 * HOUR, 30],
  ];
  for (const [label, from, minutes] of uses) {
    const node = {
      uuid: `seed-node-${label}`,
      tenant,
      provider: 'seed',
      connection: null,
      label,
      labelConfigHash: null,
      requestUuid: null,
      maxReadyAge: null,
      created: new Date(from),
    };
    await nodes.create(node, new Date(from));
    await nodes.update(node.uuid, { state: 'in-use' }, new Date(from));
    await nodes.update(node.uuid, { state: 'used' }, new Date(from + minutes * 60_000));
  }
  return { day };
}
