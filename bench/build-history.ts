/**
 * Build-history read benchmark: a PostgreSQL store with 1,000,000 builds, queried over real
 * HTTP GraphQL (50 builds with nested buildset, refs, artifacts...), reporting p50/p95/p99.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/build-history.ts \
 *     [--builds 1000000] [--iterations 300] [--fresh] [--explain]
 *
 * The data lives in its own database (`sluice_bench_history`) and is reused by later runs while
 * it holds enough builds; `--fresh` recreates it. `--explain` prints the PostgreSQL plan of every
 * statement one request of each scenario issues, to check that list queries use indexes.
 */
import knexFactory, { type Knex } from 'knex';
import { buildApp } from '../src/server/app';
import { defaultServiceConfig } from '../src/config/service';
import { silentLogger } from '../src/server/logger';
import { openDatabase } from '../src/store/database';
import { migrateLatest } from '../src/store/migrate';
import { pgTypeParsers } from '../src/store/type-parsers';
import { countTenantBuilds, fillBuildHistory } from './history-data';
import { formatReport, measureLatency } from './latency';

const TENANT = 'bench';
const DATABASE = 'sluice_bench_history';

const NESTED_BUILD_FIELDS = /* GraphQL */ `
  id databaseId uuid jobName status result startTime endTime duration voting final held logUrl nodeset errorDetail
  pipeline eventId eventTimestamp
  ref { project branch change patchset ref oldrev newrev refUrl }
  artifacts { name url metadata }
  provides
  buildset { uuid pipeline result refs { project branch change } }
`;

interface Scenario {
  name: string;
  query: string;
  variables: Record<string, unknown>;
}

function scenarios(maxBuildId: number, sampleUuid: string): Scenario[] {
  const builds = (extra = ''): string =>
    `query ($filter: BuildFilter, $after: String) { tenant(name: "${TENANT}") { ... on Tenant { ` +
    `builds(first: 50, filter: $filter, after: $after) { ${extra} nodes { ${NESTED_BUILD_FIELDS} } pageInfo { hasNextPage endCursor } } } } }`;
  const deepCursor = Buffer.from(`id:${Math.floor(maxBuildId / 2)}`).toString('base64url');
  return [
    { name: 'builds: newest 50, nested', query: builds(), variables: {} },
    { name: 'builds: newest 50 + totalCount', query: builds('totalCount'), variables: {} },
    { name: 'builds: 50 in the middle (cursor)', query: builds(), variables: { after: deepCursor } },
    {
      name: 'builds: project + pipeline filter',
      query: builds(),
      variables: { filter: { project: ['org/project-7'], pipeline: ['gate'] } },
    },
    {
      name: 'builds: job wildcard + result filter',
      query: builds(),
      variables: { filter: { jobName: ['job-1*'], result: ['FAILURE'] } },
    },
    { name: 'builds: change filter', query: builds(), variables: { filter: { change: [12345] } } },
    { name: 'builds: held (rare flag)', query: builds(), variables: { filter: { held: true } } },
    {
      name: 'buildsets: newest 50 with refs',
      query: `{ tenant(name: "${TENANT}") { ... on Tenant { buildsets(first: 50, filter: { excludeResult: [NO_JOBS, DEQUEUED] }) { nodes { uuid pipeline result message eventId firstBuildStartTime lastBuildEndTime refs { project branch change ref } } } } } }`,
      variables: {},
    },
    {
      name: 'buildTimes: newest 50',
      query: `{ tenant(name: "${TENANT}") { ... on Tenant { buildTimes(first: 50) { nodes { uuid jobName result duration project branch pipeline ref } } } } }`,
      variables: {},
    },
    {
      name: 'build(uuid) with buildset',
      query: `query ($uuid: String!) { tenant(name: "${TENANT}") { ... on Tenant { build(uuid: $uuid) { ... on Build { ${NESTED_BUILD_FIELDS} } } } } }`,
      variables: { uuid: sampleUuid },
    },
  ];
}

function parseArgs(argv: string[]): { builds: number; iterations: number; fresh: boolean; explain: boolean } {
  const value = (name: string, fallback: number): number => {
    const index = argv.indexOf(name);
    return index >= 0 ? Number(argv[index + 1]) : fallback;
  };
  return {
    builds: value('--builds', 1_000_000),
    iterations: value('--iterations', 300),
    fresh: argv.includes('--fresh'),
    explain: argv.includes('--explain'),
  };
}

async function prepareDatabase(adminUrl: string, fresh: boolean): Promise<string> {
  const admin = knexFactory({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 } });
  try {
    if (fresh) {
      await admin.raw(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    }
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

async function explainScenario(knex: Knex, run: () => Promise<void>): Promise<string[]> {
  const statements: { sql: string; bindings: readonly unknown[] }[] = [];
  const onQuery = (data: { sql: string; bindings?: readonly unknown[] }): void => {
    statements.push({ sql: data.sql, bindings: data.bindings ?? [] });
  };
  knex.on('query', onQuery);
  try {
    await run();
  } finally {
    knex.off('query', onQuery);
  }
  const lines: string[] = [];
  for (const statement of statements) {
    // The event carries the driver's native `$n` placeholders; knex.raw wants `?`.
    const sql = statement.sql.replace(/\$\d+/g, '?');
    const result = await knex.raw(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql}`, [
      ...statement.bindings,
    ] as Knex.RawBinding[]);
    const plan = (result.rows as { 'QUERY PLAN': string }[]).map((row) => row['QUERY PLAN']);
    lines.push(`  -- ${statement.sql.slice(0, 160)}`);
    lines.push(
      ...plan
        .filter((line) => /Scan|Join|Nested Loop|Sort|Limit|Execution Time/.test(line))
        .map((line) => `     ${line}`),
    );
  }
  return lines;
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    throw new Error('DATABASE_URL must point at a PostgreSQL server');
  }
  const options = parseArgs(process.argv.slice(2));
  pgTypeParsers();
  const url = await prepareDatabase(adminUrl, options.fresh);
  const database = openDatabase({ kind: 'postgres', url, poolMax: 10 });
  await migrateLatest(database.knex);

  const existing = await countTenantBuilds(database.knex, TENANT);
  if (existing < options.builds) {
    if (existing > 0) {
      throw new Error(`${DATABASE} holds ${existing} builds, fewer than ${options.builds}; rerun with --fresh`);
    }
    const started = Date.now();
    await fillBuildHistory(database.knex, {
      tenant: TENANT,
      builds: options.builds,
      progress: (written) =>
        console.log(`  ${written} builds written (${((Date.now() - started) / 1000).toFixed(0)} s)`),
    });
    console.log(`filled ${options.builds} builds in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const [{ max }] = (await database.knex.raw('SELECT max(id) AS max FROM builds WHERE tenant = ?', [TENANT])).rows as {
    max: number;
  }[];
  const [{ uuid }] = (
    await database.knex.raw('SELECT uuid FROM builds WHERE tenant = ? AND id = ?', [TENANT, Math.floor(max / 3)])
  ).rows as { uuid: string }[];

  const app = buildApp({
    config: defaultServiceConfig(process.cwd()),
    database,
    logger: silentLogger(),
    tenants: { tenantNames: () => [TENANT], layout: () => undefined },
  });
  await app.start(0, '127.0.0.1');
  const endpoint = `${app.url()}/graphql`;
  try {
    console.log(
      `store: ${await countTenantBuilds(database.knex, TENANT)} builds of tenant "${TENANT}" on ${database.describe}`,
    );
    for (const scenario of scenarios(max, uuid)) {
      const run = async (): Promise<void> => {
        const response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: scenario.query, variables: scenario.variables }),
        });
        const body = (await response.json()) as { errors?: unknown };
        if (body.errors) {
          throw new Error(`${scenario.name}: ${JSON.stringify(body.errors)}`);
        }
      };
      console.log(formatReport(await measureLatency(scenario.name, run, options.iterations)));
      if (options.explain) {
        console.log((await explainScenario(database.knex, run)).join('\n'));
      }
    }
  } finally {
    await app.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
