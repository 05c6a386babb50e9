/**
 * Relations resolve through per-request DataLoaders: listing builds with their buildset, refs,
 * artifacts and more costs the same number of SQL statements for 10 rows as for 100.
 */
import { startTestServer, type TestServer } from '../helpers/server';
import { defaultRef, historyFactory } from '../helpers/factories';

const LIST = /* GraphQL */ `
  query ($tenant: String!, $first: Int!) {
    tenant(name: $tenant) {
      ... on Tenant {
        builds(first: $first) {
          nodes {
            uuid pipeline eventId
            ref { project change }
            artifacts { name url }
            provides
            events { eventType }
            buildset { uuid refs { project branch } events { eventType } builds { uuid } }
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
    const set = await factory.buildset({ tenant, refs: [defaultRef({ change: index + 1, ref: `refs/changes/${index}/${index + 1}/1` })] });
    await factory.build(set, {
      result: 'SUCCESS',
      artifacts: [{ name: 'docs', url: `http://example.com/${index}/docs` }],
      provides: ['docs'],
    });
  }
}

/** Runs the list query and returns how many SQL statements it issued and how many builds it got. */
async function countStatements(tenant: string, first: number): Promise<{ statements: number; builds: number }> {
  let statements = 0;
  const onQuery = (): void => {
    statements += 1;
  };
  const knex = server.app.services.knex;
  knex.on('query', onQuery);
  try {
    const result = await server.graphql<{ tenant: { builds: { nodes: unknown[] } } }>(LIST, { tenant, first });
    expect(result.errors).toBeUndefined();
    return { statements, builds: result.data?.tenant.builds.nodes.length ?? 0 };
  } finally {
    knex.off('query', onQuery);
  }
}

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
