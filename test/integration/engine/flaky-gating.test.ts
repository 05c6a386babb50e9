/**
 * Flake-aware gating (docs/analytics.md#flake-aware-gating, docs/analytics.md#quarantine) on both
 * stores, on a seeded history in which `unit` is flaky: with `flaky-retries` a failure of `unit`
 * at the head of the gate is retried in place and the item behind is not reset (the same run
 * without it resets it: one gate reset avoided, counted); the retry has a typed reason in the
 * status, the history and a system event. A quarantined job's failure is reported but does not
 * fail its item; the list is edited by tenant admins through GraphQL with an audit event.
 */
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';
import { adminToken, startLiveServer, type LiveServer } from '../../helpers/live';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { canonical, job, makeLayout, pipeline } from '../../engine/scripted-layout';
import { AnalyticsRepository } from '../../../src/store/repositories/analytics';
import { BuildRepository } from '../../../src/store/repositories/builds';
import { BuildsetRepository } from '../../../src/store/repositories/buildsets';
import type { BuildResult } from '../../../src/model/results';

const PROJECT = canonical('org/project');

describe.each(backends())('flake-aware gating (%s)', (backend) => {
  let db: TestDatabase;
  const harnesses: EngineHarness[] = [];

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
  });

  afterAll(async () => {
    for (const h of harnesses) {
      await h.stop();
      expect(h.errors).toEqual([]);
    }
    await db.destroy();
  });

  /** A gate harness whose history has `unit` failing then passing on the same revision ten times (50% flaky). */
  async function gate(
    flakyRetries: number,
    options: { threshold?: number; unitRetries?: number } = {},
  ): Promise<EngineHarness> {
    const threshold = options.threshold ?? 0.2;
    const unit = options.unitRetries === undefined ? job('unit') : job('unit', { flakyRetries: options.unitRetries });
    const h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [
          pipeline('gate', 'dependent', { triggers: [], submit: true, flakyRetries, flakyThreshold: threshold }),
        ],
        projects: [{ name: 'org/project' }],
        jobs: { 'org/project': { gate: [unit, job('lint')] } },
      }),
    );
    harnesses.push(h);
    await h.start();
    const at = new Date(h.clock.now().getTime() - 86_400_000);
    const buildsets = new BuildsetRepository(db.knex);
    const builds = new BuildRepository(db.knex);
    for (let change = 100; change < 110; change += 1) {
      for (const result of ['FAILURE', 'SUCCESS'] as BuildResult[]) {
        const ref = {
          project: 'org/project',
          projectCanonical: PROJECT,
          ref: `refs/changes/${change}`,
          change,
          patchset: '1',
        };
        const { buildset, refs } = await buildsets.create({
          uuid: `${h.tenant}-${change}-${result}`,
          tenant: h.tenant,
          pipeline: 'check',
          refs: [ref],
          triggeredBy: 'seed',
          at,
        });
        const build = await builds.start({
          buildsetId: buildset.id,
          uuid: `${h.tenant}-${change}-${result}-unit`,
          jobName: 'unit',
          startTime: at,
          refId: refs[0].id,
        });
        await builds.complete(build.id, { result, endTime: new Date(at.getTime() + 60_000) });
        await buildsets.finish(buildset.id, {
          result: result === 'SUCCESS' ? 'SUCCESS' : 'FAILURE',
          message: null,
          at,
        });
      }
    }
    return h;
  }

  /** Changes 1 and 2 in the gate; the head's `unit` fails once, every other build passes. */
  async function failHeadOnce(h: EngineHarness): Promise<void> {
    for (const number of [1, 2]) {
      h.changes.add('org/project', number);
      expect(await h.enqueue('gate', 'org/project', `${number},1`)).toBe('ok');
    }
    await h.executor.finish('unit', 1, { result: 'FAILURE' });
    await h.settle();
  }

  async function resets(h: EngineHarness): Promise<number> {
    return (await db.knex('gate_resets').where('tenant', h.tenant)).length;
  }

  it('resets the item behind a failing head when nothing is configured', async () => {
    const h = await gate(0);
    await failHeadOnce(h);
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['1,1 gate FAILURE', '2,1 gate SUCCESS']);
    expect(await resets(h)).toBe(1);
    expect(await db.knex('system_events').where({ tenant: h.tenant, event_type: 'flaky-retry' })).toEqual([]);
  });

  it('retries a known-flaky job in place instead, with its reason in the status, the history and a system event', async () => {
    const h = await gate(1);
    await failHeadOnce(h);
    const status = await h.engine.status(h.tenant);
    const head = status?.pipelines[0].changeQueues[0].items[0];
    expect(head?.failingReasons).toEqual([]);
    expect(head?.jobs.find((one) => one.name === 'unit')).toMatchObject({
      retryReason: 'flaky',
      flakyRetries: 1,
      result: null,
    });
    // The item behind kept its builds: nothing was reset.
    expect(h.executor.canceled).toEqual([]);
    expect(await resets(h)).toBe(0);
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['1,1 gate SUCCESS', '2,1 gate SUCCESS']);

    const [event] = await db.knex('system_events').where({ tenant: h.tenant, event_type: 'flaky-retry' });
    expect(event.data).toMatchObject({ job: 'unit', pipeline: 'gate', retry: 1, flakeRate: 0.5 });
    const units: Array<{ result: string; final: boolean; flaky: boolean }> = await db
      .knex('builds')
      .where({ tenant: h.tenant, job_name: 'unit', pipeline: 'gate' })
      .orderBy('id');
    expect(units.map((build) => [build.result, build.final, build.flaky])).toEqual([
      ['FAILURE', false, false],
      ['SUCCESS', true, false],
      ['SUCCESS', true, true],
    ]);
    const day = new Date(h.clock.now().getTime() - 2 * 86_400_000);
    const analytics = await new AnalyticsRepository(db.knex).query(
      h.tenant,
      day,
      new Date(day.getTime() + 4 * 86_400_000),
      'day',
      { pipelines: ['gate'] },
    );
    const sums = [...analytics.buckets.values()];
    expect(sums.reduce((n, bucket) => n + bucket.flakyRetries, 0)).toBe(1);
    expect(sums.reduce((n, bucket) => n + bucket.resets, 0)).toBe(0);

    const server = await startLiveServer(db, { harness: h });
    try {
      const builds = await server.graphql<{
        tenant: { builds: { nodes: Array<{ result: string; retryReason: string | null; flaky: boolean }> } };
      }>(
        /* GraphQL */ `
          query ($tenant: String!) {
            tenant(name: $tenant) {
              ... on Tenant {
                builds(filter: { pipeline: ["gate"], jobName: ["unit"] }) {
                  nodes {
                    result
                    retryReason
                    flaky
                  }
                }
              }
            }
          }
        `,
        { tenant: h.tenant },
      );
      expect(builds.data?.tenant.builds.nodes).toEqual([
        { result: 'SUCCESS', retryReason: null, flaky: true },
        { result: 'SUCCESS', retryReason: null, flaky: false },
        { result: 'FAILURE', retryReason: 'FLAKY', flaky: false },
      ]);
    } finally {
      await server.stop();
    }
  });

  it('does not retry a job that is not known-flaky, even where flaky retries are on', async () => {
    const h = await gate(1);
    for (const number of [1, 2]) {
      h.changes.add('org/project', number);
      expect(await h.enqueue('gate', 'org/project', `${number},1`)).toBe('ok');
    }
    // `lint` has no history: its flake rate is unknown, so its failure fails the head.
    await h.executor.finish('lint', 1, { result: 'FAILURE' });
    await h.settle();
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['1,1 gate FAILURE', '2,1 gate SUCCESS']);
    expect(await resets(h)).toBe(1);
    expect(await db.knex('system_events').where({ tenant: h.tenant, event_type: 'flaky-retry' })).toEqual([]);
  });

  /** Flaky retries and resets of the gate in the analytics (a day either side of now). */
  async function counted(h: EngineHarness): Promise<{ flakyRetries: number; resets: number }> {
    const day = new Date(h.clock.now().getTime() - 86_400_000);
    const analytics = await new AnalyticsRepository(db.knex).query(
      h.tenant,
      day,
      new Date(day.getTime() + 2 * 86_400_000),
      'day',
      { pipelines: ['gate'] },
    );
    const sums = [...analytics.buckets.values()];
    return {
      flakyRetries: sums.reduce((n, bucket) => n + bucket.flakyRetries, 0),
      resets: sums.reduce((n, bucket) => n + bucket.resets, 0),
    };
  }

  it('fails the item once its flaky retries are used up, and then resets the item behind', async () => {
    const h = await gate(1);
    await failHeadOnce(h);
    expect(await resets(h)).toBe(0);
    // The retry fails too: one retry was allowed, so this failure fails the head.
    expect(await h.executor.finish('unit', 1, { result: 'FAILURE' })).toBe(1);
    await h.settle();
    const head = (await h.engine.status(h.tenant))?.pipelines[0].changeQueues[0].items[0];
    expect(head?.failingReasons).not.toEqual([]);
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['1,1 gate FAILURE', '2,1 gate SUCCESS']);
    expect(await resets(h)).toBe(1);
    expect(await db.knex('system_events').where({ tenant: h.tenant, event_type: 'flaky-retry' })).toHaveLength(1);
    expect(await counted(h)).toEqual({ flakyRetries: 1, resets: 1 });
  });

  it('does not retry a job whose flake rate is under the threshold', async () => {
    // unit's seeded flake rate is 0.5.
    const h = await gate(1, { threshold: 0.6 });
    await failHeadOnce(h);
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['1,1 gate FAILURE', '2,1 gate SUCCESS']);
    expect(await counted(h)).toEqual({ flakyRetries: 0, resets: 1 });
  });

  it("lets a job's flaky-retries: 0 turn off its pipeline's", async () => {
    const h = await gate(2, { unitRetries: 0 });
    await failHeadOnce(h);
    await h.executor.finishAll();
    await h.settle();
    expect(h.reports()).toEqual(['1,1 gate FAILURE', '2,1 gate SUCCESS']);
    expect(await counted(h)).toEqual({ flakyRetries: 0, resets: 1 });
    expect(await db.knex('system_events').where({ tenant: h.tenant, event_type: 'flaky-retry' })).toEqual([]);
  });

  describe('quarantine', () => {
    let h: EngineHarness;
    let server: LiveServer;
    const ADD = /* GraphQL */ `
      mutation ($input: QuarantineAddInput!) {
        quarantineAdd(input: $input) {
          __typename
          ... on QuarantinedJob {
            job
            project
            reason
            addedBy
          }
          ... on Error {
            message
          }
        }
      }
    `;
    const REMOVE = /* GraphQL */ `
      mutation ($input: QuarantineRemoveInput!) {
        quarantineRemove(input: $input) {
          __typename
          ... on QuarantinedJob {
            job
          }
          ... on Error {
            message
          }
        }
      }
    `;

    beforeAll(async () => {
      h = await gate(0);
      server = await startLiveServer(db, { harness: h });
    });

    afterAll(async () => {
      await server.stop();
    });

    it('lets tenant admins edit the list, with an audit event, and nobody else', async () => {
      const input = { tenant: h.tenant, job: 'lint', project: 'org/project', reason: 'fails on the new runners' };
      const anonymous = await server.graphql(ADD, { input });
      expect(anonymous.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
      const other = await server.graphql(ADD, { input }, adminToken('some-other-tenant'));
      expect(other.errors?.[0].extensions?.code).toBe('FORBIDDEN');
      const unknown = await server.graphql(ADD, { input: { ...input, project: 'org/nope' } }, adminToken(h.tenant));
      expect(unknown.data?.quarantineAdd).toEqual({ __typename: 'NotFoundError', message: 'Unknown project' });
      const added = await server.graphql(ADD, { input }, adminToken(h.tenant, { sub: 'alice' }));
      expect(added.data?.quarantineAdd).toEqual({
        __typename: 'QuarantinedJob',
        job: 'lint',
        project: PROJECT,
        reason: 'fails on the new runners',
        addedBy: 'alice',
      });
      const list = await server.graphql<{ tenant: { quarantine: unknown[] } }>(
        'query ($t: String!) { tenant(name: $t) { ... on Tenant { quarantine { job project } } } }',
        { t: h.tenant },
      );
      expect(list.data?.tenant.quarantine).toEqual([{ job: 'lint', project: PROJECT }]);
      const [audit] = await db.knex('system_events').where({ tenant: h.tenant, event_type: 'quarantine-changed' });
      expect(audit.description).toContain('alice');
      expect(audit.data).toMatchObject({ action: 'added', job: 'lint', project: PROJECT });
    });

    it("reports a quarantined job's failure without failing the item", async () => {
      h.changes.add('org/project', 1);
      expect(await h.enqueue('gate', 'org/project', '1,1')).toBe('ok');
      await h.executor.finish('lint', 1, { result: 'FAILURE' });
      await h.settle();
      const item = (await h.engine.status(h.tenant))?.pipelines[0].changeQueues[0].items[0];
      expect(item?.failingReasons).toEqual([]);
      expect(item?.jobs.find((one) => one.name === 'lint')).toMatchObject({ result: 'FAILURE', quarantined: true });
      await h.executor.finishAll();
      await h.settle();
      expect(h.reports()).toEqual(['1,1 gate SUCCESS']);
      const [buildset] = await db.knex('buildsets').where({ tenant: h.tenant, pipeline: 'gate' });
      expect(buildset.message).toMatch(/lint .*FAILURE.*\(quarantined\)/);
    });

    it('takes a job off the list once', async () => {
      const input = { tenant: h.tenant, job: 'lint', project: PROJECT };
      const removed = await server.graphql(REMOVE, { input }, adminToken(h.tenant));
      expect(removed.data?.quarantineRemove).toEqual({ __typename: 'QuarantinedJob', job: 'lint' });
      const again = await server.graphql(REMOVE, { input }, adminToken(h.tenant));
      expect(again.data?.quarantineRemove).toEqual({
        __typename: 'NotFoundError',
        message: 'The job is not in the quarantine list',
      });
      expect(await db.knex('system_events').where({ tenant: h.tenant, event_type: 'quarantine-changed' })).toHaveLength(
        2,
      );
    });

    it('is the same over REST, a Sluice extension', async () => {
      const base = `${server.url}/api/tenant/${h.tenant}/quarantine`;
      const admin = {
        authorization: `Bearer ${adminToken(h.tenant, { sub: 'bob' })}`,
        'content-type': 'application/json',
      };
      const post = (body: unknown, headers: Record<string, string> = admin) =>
        fetch(base, { method: 'POST', headers, body: JSON.stringify(body) });
      expect((await post({ job: 'docs', reason: 'x' }, { 'content-type': 'application/json' })).status).toBe(401);
      expect((await post({ job: 7, reason: 'x' })).status).toBe(400);
      const added = await post({ job: 'docs', reason: 'noisy' });
      expect(added.status).toBe(200);
      expect(await added.json()).toMatchObject({ job: 'docs', project: null, reason: 'noisy', added_by: 'bob' });
      expect(await (await fetch(base)).json()).toEqual([expect.objectContaining({ job: 'docs', project: null })]);
      const removed = await fetch(`${base}/docs`, { method: 'DELETE', headers: admin });
      expect(removed.status).toBe(200);
      const again = await fetch(`${base}/docs`, { method: 'DELETE', headers: admin });
      expect(again.status).toBe(404);
      expect(await again.json()).toMatchObject({ description: 'The job is not in the quarantine list' });
    });
  });
});
