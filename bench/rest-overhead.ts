/**
 * REST overhead benchmark: `GET T/builds?limit=50` over a store of 1,000,000 builds, through
 *   1. REST (HTTP -> route table -> in-process GraphQL -> current-shape mapper -> JSON),
 *   2. the same GraphQL operation (RestBuilds) over HTTP,
 *   3. the store directly: the repositories' SQL (builds page, then refs, buildsets, artifacts
 *      and provides by id, as the loaders batch them) + mapping + JSON encoding, no HTTP,
 *   4. an HTTP round trip that does nothing (`/health/live`), to show what HTTP alone costs.
 * Reports p50/p99 and the ratios REST/GraphQL and REST/SQL (targets 1.3x and 2x).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/rest-overhead.ts [--iterations 300] [--builds 1000000]
 *     [--noisy 100000]
 *
 * `--noisy N` adds a second tenant with N builds written after the measured tenant's, so their
 * ids are all newer: the measured page then sits below another tenant's rows, as on a shared
 * store (docs/rest.md#history-pages-on-a-shared-store). The report adds the page query alone and
 * an unfiltered count, for the measured tenant.
 *
 * Data: the database `sluice_bench_rest`, filled once with the history branch's generator
 * (bench/history-data.ts) and reused while it holds enough builds; a store size other than the
 * default 1,000,000 (`--builds`) gets its own tenant (`bench-<builds>`).
 */
import './production-mode';
import knexFactory from 'knex';
import { print } from 'graphql';
import { buildApp } from '../src/server/app';
import { defaultServiceConfig } from '../src/config/service';
import { silentLogger } from '../src/server/logger';
import { openDatabase } from '../src/store/database';
import { migrateLatest } from '../src/store/migrate';
import { pgTypeParsers } from '../src/store/type-parsers';
import { BuildRepository, type BuildRecord } from '../src/store/repositories/builds';
import { BuildsetRepository } from '../src/store/repositories/buildsets';
import { RefRepository, type RefRecord } from '../src/store/repositories/refs';
import { RestBuildsDocument } from '../rest-compat/generated/graphql';
import { countTenantBuilds, fillBuildHistory } from './history-data';
import { formatReport, type LatencyReport } from './latency';

// Its own database: other branches migrate sluice_bench_history with their own migration lists.
const DATABASE = 'sluice_bench_rest';
const DEFAULT_BUILDS = 1_000_000;

function option(name: string): number | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? Number(process.argv[index + 1]) : undefined;
}

const BUILDS = option('--builds') ?? DEFAULT_BUILDS;
const TENANT = BUILDS === DEFAULT_BUILDS ? 'bench' : `bench-${BUILDS}`;
const NOISY_BUILDS = option('--noisy') ?? 0;
const NOISY_TENANT = `${TENANT}-noisy`;

async function databaseUrl(adminUrl: string): Promise<string> {
  const admin = knexFactory({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 } });
  try {
    const existing = await admin.raw('SELECT 1 FROM pg_database WHERE datname = ?', [DATABASE]);
    if (existing.rows.length === 0) {
      await admin.raw(`CREATE DATABASE ${DATABASE}`);
    }
  } finally {
    await admin.destroy();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${DATABASE}`;
  return url.toString();
}

const naive = (date: Date | null): string | null => (date ? date.toISOString().slice(0, 19) : null);

function refJson(ref: RefRecord): Record<string, unknown> {
  return {
    project: ref.project,
    branch: ref.branch ?? '',
    change: ref.change,
    patchset: ref.patchset,
    ref: ref.ref,
    oldrev: ref.oldrev,
    newrev: ref.newrev,
    ref_url: ref.refUrl ?? '',
  };
}

/** The floor: the store's statements for one page plus the same record mapping and JSON encoding. */
function sqlScenario(knex: ReturnType<typeof openDatabase>['knex']): () => Promise<void> {
  const builds = new BuildRepository(knex);
  const buildsets = new BuildsetRepository(knex);
  const refs = new RefRepository(knex);
  return async () => {
    const page: BuildRecord[] = await builds.list(TENANT, {}, { limit: 50, offset: 0, fromEnd: false });
    const ids = page.map((build) => build.id);
    const [refRows, buildsetRows, artifacts, provides] = await Promise.all([
      refs.findByIds([...new Set(page.flatMap((build) => (build.refId === null ? [] : [build.refId])))]),
      buildsets.findByIds([...new Set(page.map((build) => build.buildsetId))]),
      builds.listArtifacts(ids),
      builds.listProvides(ids),
    ]);
    const refById = new Map(refRows.map((ref) => [ref.id, ref]));
    const buildsetById = new Map(buildsetRows.map((buildset) => [buildset.id, buildset]));
    const body = page.map((build) => {
      const ref = build.refId === null ? undefined : refById.get(build.refId);
      const buildset = buildsetById.get(build.buildsetId);
      return {
        _id: build.id,
        uuid: build.uuid,
        job_name: build.jobName,
        result: build.result,
        held: build.held,
        start_time: naive(build.startTime),
        end_time: naive(build.endTime),
        duration:
          build.startTime && build.endTime ? (build.endTime.getTime() - build.startTime.getTime()) / 1000 : null,
        voting: build.voting,
        log_url: build.logUrl,
        nodeset: build.nodeset,
        error_detail: build.errorDetail,
        final: build.final,
        artifacts: artifacts
          .filter((a) => a.buildId === build.id)
          .map((a) => ({ name: a.name, url: a.url, ...(a.metadata ? { metadata: a.metadata } : {}) })),
        provides: provides.filter((p) => p.buildId === build.id).map((p) => ({ name: p.name })),
        ref: ref ? refJson(ref) : null,
        pipeline: buildset?.pipeline,
        event_id: buildset?.eventId ?? null,
        event_timestamp: naive(buildset?.eventTimestamp ?? null),
        buildset: { uuid: buildset?.uuid },
      };
    });
    if (JSON.stringify(body).length === 0) {
      throw new Error('empty body');
    }
  };
}

/**
 * Measures the scenarios round-robin (one request of each in turn) so that load from other
 * processes on the machine affects all of them alike; reports the same figures as latency.ts.
 */
async function measureInterleaved(
  scenarios: [string, () => Promise<void>][],
  iterations: number,
  warmup = 20,
): Promise<LatencyReport[]> {
  const samples = scenarios.map((): number[] => []);
  for (let round = 0; round < warmup + iterations; round += 1) {
    for (const [index, [, run]] of scenarios.entries()) {
      const started = process.hrtime.bigint();
      await run();
      if (round >= warmup) {
        samples[index].push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }
  }
  return scenarios.map(([name], index) => {
    const sorted = [...samples[index]].sort((a, b) => a - b);
    const at = (fraction: number): number =>
      sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
    return {
      name,
      iterations,
      p50: at(0.5),
      p95: at(0.95),
      p99: at(0.99),
      max: sorted[sorted.length - 1],
      mean: sorted.reduce((sum, x) => sum + x, 0) / sorted.length,
    };
  });
}

function ratio(a: LatencyReport, b: LatencyReport): string {
  return `p50 ${(a.p50 / b.p50).toFixed(2)}x, p99 ${(a.p99 / b.p99).toFixed(2)}x`;
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    throw new Error('DATABASE_URL must point at a PostgreSQL server');
  }
  const iterations = option('--iterations') ?? 300;
  pgTypeParsers();
  const database = openDatabase({ kind: 'postgres', url: await databaseUrl(adminUrl), poolMax: 10 });
  await migrateLatest(database.knex);
  if ((await countTenantBuilds(database.knex, TENANT)) < BUILDS) {
    await fillBuildHistory(database.knex, {
      tenant: TENANT,
      builds: BUILDS,
      progress: (written) => console.log(`  ${written} builds written`),
    });
  }
  if (NOISY_BUILDS > 0 && (await countTenantBuilds(database.knex, NOISY_TENANT)) < NOISY_BUILDS) {
    await fillBuildHistory(database.knex, {
      tenant: NOISY_TENANT,
      builds: NOISY_BUILDS,
      progress: (written) => console.log(`  ${written} builds of ${NOISY_TENANT} written`),
    });
  }
  const repository = new BuildRepository(database.knex);
  const app = buildApp({
    config: defaultServiceConfig(process.cwd()),
    database,
    logger: silentLogger(),
    tenants: { tenantNames: () => [TENANT], layout: () => undefined },
  });
  await app.start(0, '127.0.0.1');
  try {
    console.log(
      `store: ${await countTenantBuilds(database.knex, TENANT)} builds of tenant "${TENANT}", ` +
        `${await countTenantBuilds(database.knex, NOISY_TENANT)} newer builds of "${NOISY_TENANT}" on ${database.describe}`,
    );
    const restUrl = `${app.url()}/api/tenant/${TENANT}/builds?limit=50`;
    const query = print(RestBuildsDocument);
    const [rest, graphql, sql, httpFloor, pageQuery, plainPageQuery, count, exactCount] = await measureInterleaved(
      [
        [
          'REST GET T/builds?limit=50',
          async () => {
            const res = await fetch(restUrl);
            if (res.status !== 200 || (await res.text()).length === 0) {
              throw new Error(`REST answered ${res.status}`);
            }
          },
        ],
        [
          'GraphQL RestBuilds (first: 50) over HTTP',
          async () => {
            const res = await fetch(`${app.url()}/graphql`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ query, variables: { tenant: TENANT, first: 50, offset: 0, filter: {} } }),
            });
            const body = (await res.json()) as { errors?: unknown };
            if (body.errors) {
              throw new Error(JSON.stringify(body.errors));
            }
          },
        ],
        ['store SQL + mapping + JSON (no HTTP)', sqlScenario(database.knex)],
        [
          // What any HTTP round trip costs on this machine (no database, no GraphQL).
          'HTTP floor: GET /health/live',
          async () => {
            const res = await fetch(`${app.url()}/health/live`);
            await res.text();
          },
        ],
        [
          'page query alone (builds.list, 50)',
          async () => {
            await repository.list(TENANT, {}, { limit: 50, offset: 0, fromEnd: false });
          },
        ],
        [
          // The shape before docs/rest.md#history-pages-on-a-shared-store, for comparison.
          'page query with tenant = t (before)',
          async () => {
            await database.knex('builds').where('tenant', TENANT).orderBy('id', 'desc').limit(50);
          },
        ],
        [
          'unfiltered count (builds.count)',
          async () => {
            await repository.count(TENANT, {});
          },
        ],
        [
          'count(*) of the tenant (before)',
          async () => {
            await database.knex('builds').where('tenant', TENANT).count({ n: '*' });
          },
        ],
      ],
      iterations,
    );
    for (const report of [rest, graphql, sql, httpFloor, pageQuery, plainPageQuery, count, exactCount]) {
      console.log(formatReport(report));
    }
    console.log(`REST / GraphQL: ${ratio(rest, graphql)} (target <= 1.3x)`);
    console.log(`REST / SQL:     ${ratio(rest, sql)} (target <= 2x)`);
    const withoutHttp = { ...rest, p50: rest.p50 - httpFloor.p50, p99: rest.p99 - httpFloor.p99 };
    console.log(`(REST - HTTP floor) / SQL: ${ratio(withoutHttp, sql)}`);
  } finally {
    await app.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
