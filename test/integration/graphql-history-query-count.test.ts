/**
 * Relations resolve through per-request DataLoaders: listing builds with their buildset, refs,
 * artifacts and more costs the same number of SQL statements for 10 rows as for 100. A page
 * prefetches only the relations its query selects (schema/infra/prefetch.ts), over GraphQL and REST.
 */
import { startTestServer, type TestServer } from '../helpers/server';
import { defaultRef, historyFactory } from '../helpers/factories';

const LIST = /* GraphQL */ `
  query ($tenant: String!, $first: Int!) {
    tenant(name: $tenant) {
      ... on Tenant {
        builds(first: $first) {
          nodes {
            uuid
            pipeline
            eventId
            ref {
              project
              change
            }
            artifacts {
              name
              url
            }
            provides
            events {
              eventType
            }
            buildset {
              uuid
              refs {
                project
                branch
              }
              events {
                eventType
              }
              builds {
                uuid
              }
            }
          }
        }
      }
    }
  }
`;

let server: TestServer;

/** Seeds `count` buildsets of one build each (every build with artifacts) into `tenant`. */
async function seed(tenant: string, count: number): Promise<void> {
  const factory = historyFactory(server.database.knex);
  for (let index = 0; index < count; index += 1) {
    const set = await factory.buildset({
      tenant,
      refs: [defaultRef({ change: index + 1, ref: `refs/changes/${index}/${index + 1}/1` })],
    });
    await factory.build(set, {
      result: 'SUCCESS',
      artifacts: [{ name: 'docs', url: `http://example.com/${index}/docs` }],
      provides: ['docs'],
    });
  }
}

/**
 * The SQL statements `run` issues. A history read writes nothing: statements that write are the
 * server's periodic store care (the retention of processed engine events and dequeued items runs
 * at start, and on the embedded store it can land in the first count), not the read's.
 */
async function statementsOf(run: () => Promise<void>): Promise<string[]> {
  const statements: string[] = [];
  const onQuery = (query: { sql: string }): void => {
    if (!/\b(delete|insert|update)\b/i.test(query.sql)) {
      statements.push(query.sql);
    }
  };
  const knex = server.app.services.knex;
  knex.on('query', onQuery);
  try {
    await run();
    return statements;
  } finally {
    knex.off('query', onQuery);
  }
}

/** Runs the list query and returns how many SQL statements it issued and how many builds it got. */
async function countStatements(
  tenant: string,
  first: number,
  list = LIST,
): Promise<{ statements: number; builds: number }> {
  let builds = 0;
  const statements = await statementsOf(async () => {
    const result = await server.graphql<{ tenant: { builds: { nodes: unknown[] } } }>(list, { tenant, first });
    expect(result.errors).toBeUndefined();
    builds = result.data?.tenant.builds.nodes.length ?? 0;
  });
  return { statements: statements.length, builds };
}

/** The table a statement reads first (`select … from "artifacts" …` -> artifacts). */
const tableOf = (sql: string): string => /from "?(\w+)"?/.exec(sql)?.[1] ?? sql;

beforeAll(async () => {
  server = await startTestServer({ tenants: ['small', 'large'] });
  await seed('small', 10);
  await seed('large', 100);
});

afterAll(async () => {
  await server.stop();
});

it('issues a constant number of statements whatever the number of rows', async () => {
  const small = await countStatements('small', 100);
  const large = await countStatements('large', 100);
  expect(small.builds).toBe(10);
  expect(large.builds).toBe(100);
  // list + buildsets + build refs (+ the tenants using them: refs are shared, their loader
  // checks read access) + buildset refs + artifacts + provides + build events + buildset
  // events + builds of buildsets
  expect(large.statements).toBe(small.statements);
  expect(large.statements).toBeLessThanOrEqual(10);
});

it('loads only the relations a page selects', async () => {
  const bare = await countStatements(
    'large',
    100,
    'query ($tenant: String!, $first: Int!) { tenant(name: $tenant) { ... on Tenant { builds(first: $first) { nodes { uuid jobName } } } } }',
  );
  expect(bare).toEqual({ statements: 1, builds: 100 });
  const throughEdges = await statementsOf(async () => {
    const result = await server.graphql(
      'query ($tenant: String!) { tenant(name: $tenant) { ... on Tenant { builds(first: 20) { edges { node { ...B } } } } } } fragment B on Build { uuid provides }',
      { tenant: 'large' },
    );
    expect(result.errors).toBeUndefined();
  });
  expect(throughEdges.map(tableOf)).toEqual(['builds', 'provides']);
});

it('serves a REST page of builds with one statement per relation', async () => {
  const statements = await statementsOf(async () => {
    const res = await fetch(`${server.url}/api/tenant/large/builds?limit=100`);
    expect(res.status).toBe(200);
    expect(await res.json()).toHaveLength(100);
  });
  expect(statements.map(tableOf).sort()).toEqual(['artifacts', 'builds', 'buildsets', 'provides', 'refs']);
  // The refs of readable builds need no access query over every buildset using them.
  expect(statements.find((sql) => tableOf(sql) === 'refs')).not.toMatch(/buildset_refs/);
});
