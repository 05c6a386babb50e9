/**
 * Items of a `startQuickstartApp()` deployment: admin enqueues over GraphQL, the report of a
 * change's item and the builds of a change's last buildset, for the real-git tests of
 * docs/gating.md#speculative-layouts and docs/gating.md#dependency-cycles.
 */
import type { EngineDelta } from '../../src/engine/event-bus';
import { ENQUEUE } from './gate-deployment';
import { QUICKSTART_PROJECT, QUICKSTART_TENANT, type QuickstartApp } from './quickstart-app';

/** POST a GraphQL operation as the tenant admin; resolves with the parsed body. */
export async function adminGraphql<T>(qs: QuickstartApp, query: string, variables: object): Promise<T> {
  const response = await fetch(`${qs.url()}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${qs.token()}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as T;
}

/** Enqueue change `<number>,<patchset>` of `project` into `pipeline` (an admin enqueue). */
export async function enqueueChange(
  qs: QuickstartApp,
  pipeline: string,
  number: number,
  project: string = QUICKSTART_PROJECT,
  patchset = 1,
): Promise<void> {
  const body = await adminGraphql<{ data?: { enqueue: { __typename: string } } }>(qs, ENQUEUE, {
    input: { tenant: QUICKSTART_TENANT, pipeline, project, change: `${number},${patchset}` },
  });
  expect(body.data?.enqueue.__typename).toBe('ManagementEventAccepted');
}

/** The first live item of change `<number>,<patchset>` enqueued into `pipeline` after the first `from` deltas. */
export async function enqueuedItem(
  qs: QuickstartApp,
  pipeline: string,
  number: number,
  from: number,
  patchset = 1,
): Promise<EngineDelta & { type: 'item-enqueued' }> {
  const enqueued = await qs.waitForDelta(
    from,
    (delta) =>
      delta.type === 'item-enqueued' &&
      delta.live &&
      delta.pipeline === pipeline &&
      delta.changeIds[0] === `${number},${patchset}`,
  );
  return enqueued as EngineDelta & { type: 'item-enqueued' };
}

/** The report of the first item of change `number` enqueued into `pipeline` after the first `from` deltas. */
export async function reportOf(
  qs: QuickstartApp,
  pipeline: string,
  number: number,
  from: number,
  patchset = 1,
): Promise<EngineDelta & { type: 'item-reported' }> {
  const { itemUuid } = await enqueuedItem(qs, pipeline, number, from, patchset);
  const reported = await qs.waitForDelta(
    from,
    (delta) => delta.type === 'item-reported' && delta.itemUuid === itemUuid,
  );
  return reported as EngineDelta & { type: 'item-reported' };
}

/** Job name -> result of the final builds of the last buildset in `pipeline` with a ref matching `where`. */
export async function lastBuilds(
  qs: QuickstartApp,
  pipeline: string,
  where: Record<string, unknown>,
): Promise<Record<string, string>> {
  const buildset: { id: number } | undefined = await qs.database
    .knex('buildsets')
    .join('buildset_refs', 'buildset_refs.buildset_id', 'buildsets.id')
    .join('refs', 'refs.id', 'buildset_refs.ref_id')
    .where({ 'buildsets.tenant': QUICKSTART_TENANT, 'buildsets.pipeline': pipeline })
    .where(Object.fromEntries(Object.entries(where).map(([key, value]) => [`refs.${key}`, value])))
    .orderBy('buildsets.id', 'desc')
    .first('buildsets.id');
  const rows: Array<{ job_name: string; result: string | null }> = await qs.database
    .knex('builds')
    .where({ buildset_id: buildset?.id ?? 0, final: true })
    .select('job_name', 'result');
  return Object.fromEntries(rows.map((row) => [row.job_name, row.result ?? 'none']));
}

/** Resolves once the engine has processed every stored event (a test's next push then comes after them). */
export async function eventsJudged(qs: QuickstartApp): Promise<void> {
  for (let tries = 0; tries < 3000; tries += 1) {
    const [pending] = await qs.database.knex('engine_events').whereNull('processed').count('* as n');
    if (Number(pending.n) === 0) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('engine events still pending after five minutes');
}
