/**
 * Tenants, pipelines and config errors in GraphQL, through a real server whose LayoutManager loads the
 * schema-tenant fixture from real git repositories (test/helpers/schema-tenant.ts).
 */
import { useSchemaTenantServer } from '../../helpers/schema-tenant';

const env = useSchemaTenantServer();
const { query, tenantQuery } = env;

describe('tenants from the LayoutManager', () => {
  it('lists the tenants of the tenant file, sorted', async () => {
    const body = await query('{ tenants { name } }');
    expect(body.data).toEqual({ tenants: [{ name: 'acme' }, { name: 'bare' }, { name: 'other' }] });
  });

  it('answers tenant-level capabilities: `niz` when the tenant has providers', async () => {
    const tenant = await tenantQuery<{ info: unknown }>('info { authenticationRealm readProtected niz }');
    expect(tenant.info).toEqual({ authenticationRealm: null, readProtected: false, niz: true });
    const bare = await tenantQuery<{ info: unknown; providers: unknown[]; images: unknown[] }>(
      'info { niz } providers { name } images { name }',
      undefined,
      'bare',
    );
    expect(bare).toEqual({ __typename: 'Tenant', info: { niz: false }, providers: [], images: [] });
  });
});

describe('pipelines', () => {
  it('lists pipelines in layout order with manager, precedence, triggers and window', async () => {
    const tenant = await tenantQuery<{ pipelines: unknown[] }>(
      'pipelines { name description manager precedence postReview triggers { name driver } window { initial floor ceiling increaseType increaseFactor decreaseType decreaseFactor } }',
    );
    expect(tenant.pipelines).toEqual([
      {
        name: 'check',
        description: 'Newly uploaded patchsets enter this pipeline.',
        manager: 'INDEPENDENT',
        precedence: 'NORMAL',
        postReview: false,
        triggers: [{ name: 'gerrit', driver: 'git' }],
        window: {
          initial: 20,
          floor: 3,
          ceiling: null,
          increaseType: 'LINEAR',
          increaseFactor: 1,
          decreaseType: 'EXPONENTIAL',
          decreaseFactor: 2,
        },
      },
      {
        name: 'gate',
        description: null,
        manager: 'DEPENDENT',
        precedence: 'HIGH',
        postReview: true,
        triggers: [],
        window: {
          initial: 10,
          floor: 2,
          ceiling: null,
          increaseType: 'EXPONENTIAL',
          increaseFactor: 2,
          decreaseType: 'EXPONENTIAL',
          decreaseFactor: 2,
        },
      },
      {
        name: 'periodic',
        description: null,
        manager: 'INDEPENDENT',
        precedence: 'LOW',
        postReview: false,
        triggers: [{ name: 'timer', driver: 'timer' }],
        window: {
          initial: 20,
          floor: 3,
          ceiling: null,
          increaseType: 'LINEAR',
          increaseFactor: 1,
          decreaseType: 'EXPONENTIAL',
          decreaseFactor: 2,
        },
      },
    ]);
  });
});

describe('config errors', () => {
  type Page = {
    totalCount: number;
    nodes: { severity: string; name: string; sourceContext: { project: string; branch: string } | null }[];
    pageInfo: Record<string, unknown>;
    edges: { cursor: string }[];
  };
  const PAGE =
    'totalCount nodes { severity name sourceContext { project branch } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor }';
  const summary = (page: Page) =>
    page.nodes.map(
      (n) => `${n.severity} ${n.name} ${n.sourceContext?.project ?? '-'}@${n.sourceContext?.branch ?? '-'}`,
    );

  it('counts and lists every error and warning in layout order', async () => {
    const tenant = await tenantQuery<{ configErrorCount: number; configErrors: Page }>(
      `configErrorCount configErrors { ${PAGE} }`,
    );
    expect(tenant.configErrorCount).toBe(4);
    expect(tenant.configErrors.totalCount).toBe(4);
    expect(summary(tenant.configErrors)).toEqual([
      'WARNING Cleanup Run Deprecation org/project1@master',
      'ERROR Nodeset Not Found org/project1@stable',
      'ERROR Job Not Found org/project2@master',
      'ERROR Job Not Found org/project2@master',
    ]);
    expect(tenant.configErrors.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
  });

  it.each([
    [
      { project: 'org/project1' },
      ['WARNING Cleanup Run Deprecation org/project1@master', 'ERROR Nodeset Not Found org/project1@stable'],
    ],
    [{ branch: 'stable' }, ['ERROR Nodeset Not Found org/project1@stable']],
    [{ severity: 'WARNING' }, ['WARNING Cleanup Run Deprecation org/project1@master']],
    [{ name: 'Job Not Found' }, ['ERROR Job Not Found org/project2@master', 'ERROR Job Not Found org/project2@master']],
    [{ project: 'org/project1', severity: 'ERROR' }, ['ERROR Nodeset Not Found org/project1@stable']],
    [
      { project: 'org/project2', branch: 'master', name: 'Job Not Found', severity: 'ERROR' },
      ['ERROR Job Not Found org/project2@master', 'ERROR Job Not Found org/project2@master'],
    ],
    [{ project: 'common-config' }, []],
  ])('filters by %j', async (filter, expected) => {
    const tenant = await tenantQuery<{ configErrors: Page }>(`configErrors(filter: $filter) { ${PAGE} }`, { filter });
    expect(summary(tenant.configErrors)).toEqual(expected);
    expect(tenant.configErrors.totalCount).toBe(expected.length);
  });

  it('pages forwards with cursors and offset, and backwards', async () => {
    const first = (await tenantQuery<{ configErrors: Page }>(`configErrors(first: 1) { ${PAGE} }`)).configErrors;
    expect(summary(first)).toEqual(['WARNING Cleanup Run Deprecation org/project1@master']);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(first.totalCount).toBe(4);

    const middle = (
      await tenantQuery<{ configErrors: Page }>(`configErrors(first: 2, after: $after) { ${PAGE} }`, {
        after: first.pageInfo.endCursor,
      })
    ).configErrors;
    expect(summary(middle)).toEqual([
      'ERROR Nodeset Not Found org/project1@stable',
      'ERROR Job Not Found org/project2@master',
    ]);
    expect(middle.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });

    const end = (
      await tenantQuery<{ configErrors: Page }>(`configErrors(first: 5, after: $after) { ${PAGE} }`, {
        after: middle.pageInfo.endCursor,
      })
    ).configErrors;
    expect(summary(end)).toEqual(['ERROR Job Not Found org/project2@master']);
    expect(end.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    const past = (
      await tenantQuery<{ configErrors: Page }>(`configErrors(first: 5, after: $after) { ${PAGE} }`, {
        after: end.pageInfo.endCursor,
      })
    ).configErrors;
    expect(past.nodes).toEqual([]);
    expect(past.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true, startCursor: null, endCursor: null });

    const skipped = (await tenantQuery<{ configErrors: Page }>(`configErrors(offset: 2, first: 1) { ${PAGE} }`))
      .configErrors;
    expect(summary(skipped)).toEqual(['ERROR Job Not Found org/project2@master']);
    expect(skipped.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });

    const last = (await tenantQuery<{ configErrors: Page }>(`configErrors(last: 2) { ${PAGE} }`)).configErrors;
    expect(summary(last)).toEqual([
      'ERROR Job Not Found org/project2@master',
      'ERROR Job Not Found org/project2@master',
    ]);
    const before = (
      await tenantQuery<{ configErrors: Page }>(`configErrors(last: 5, before: $before) { ${PAGE} }`, {
        before: last.pageInfo.startCursor,
      })
    ).configErrors;
    expect(summary(before)).toEqual([
      'WARNING Cleanup Run Deprecation org/project1@master',
      'ERROR Nodeset Not Found org/project1@stable',
    ]);
    expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  });

  it('rejects bad cursors and negative sizes', async () => {
    const badCursor = await query(
      '{ tenant(name: "acme") { ... on Tenant { configErrors(after: "bogus") { totalCount } } } }',
    );
    expect(badCursor.errors?.[0].message).toBe('Invalid cursor "bogus".');
    const negative = await query(
      '{ tenant(name: "acme") { ... on Tenant { configErrors(first: -1) { totalCount } } } }',
    );
    expect(negative.errors?.[0].message).toBe('`first` must not be negative.');
  });
});

describe('secrets', () => {
  it('never appear in any response of this file', () => {
    expect(env.bodies.length).toBeGreaterThan(0);
    env.expectNoSecretInResponses();
  });
});
