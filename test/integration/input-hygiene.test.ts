/**
 * The input rules of docs/rest.md#input-rules and docs/graphql.md#input-rules, one test per
 * reproduction of issue #20: NUL bytes in filters and ids, autohold ids beyond a bigint, a list
 * literal nested 5,000 deep, the event-queue state of a tenant named `*`, and `enqueue-ref`
 * without revisions. Each refusal names the parameter and comes before any SQL.
 */
import { ZERO_REVISION } from '../../src/model/changes';
import { adminToken, liveTestConfig } from '../helpers/live';
import { SHAPES } from '../helpers/openapi-documents';
import { useRestContract } from '../helpers/rest-contract';

const TENANT = 'tenant-one';
const T = `/api/tenant/${TENANT}`;
const NUL = 'must not contain control characters (found U+0000)';

describe('input hygiene', () => {
  const config = liveTestConfig();
  const contract = useRestContract({ config: { auth: config.auth } });
  const admin = adminToken(TENANT);
  const rootAdmin = adminToken('*');

  const request = (path: string, init: RequestInit & { token?: string } = {}, shape = 'current'): Promise<Response> =>
    fetch(`${contract.server.url}${path}`, {
      ...init,
      headers: {
        'X-Sluice-Api-Shape': shape,
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(init.token === undefined ? {} : { Authorization: `Bearer ${init.token}` }),
      },
    });

  const graphql = async (query: string, variables: Record<string, unknown> = {}, token?: string) => {
    const res = await fetch(`${contract.server.url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  const expectError = async (res: Response, status: number, description: string): Promise<void> => {
    expect({ status: res.status, body: await res.json() }).toEqual({
      status,
      body: { error: status === 400 ? 'BadRequest' : 'NotFound', description },
    });
  };

  describe('a NUL byte in a string filter or id answers 400 naming the parameter', () => {
    const reads: Array<[string, string]> = [
      [`${T}/builds?project=org%2Fproject1%00`, `Query parameter project ${NUL}`],
      [`${T}/builds?job_name=%00`, `Query parameter job_name ${NUL}`],
      [`${T}/buildsets?pipeline=check%00`, `Query parameter pipeline ${NUL}`],
      [`${T}/buildset/%00`, `Path parameter uuid ${NUL}`],
      [`${T}/build/a%00b`, `Path parameter uuid ${NUL}`],
      [`${T}/build-times?branch=%00`, `Query parameter branch ${NUL}`],
      [`${T}/badge?project=%00`, `Query parameter project ${NUL}`],
      [`${T}/autohold?project=%00`, `Query parameter project ${NUL}`],
      [`${T}/autohold/%00`, `Path parameter request_id ${NUL}`],
      [`${T}/job/%00`, `Path parameter job_name ${NUL}`],
      [`${T}/project/org/project1%00`, `Path parameter project_name ${NUL}`],
      [`${T}/builds?newrev=%1B%5B31m`, 'Query parameter newrev must not contain control characters (found U+001B)'],
    ];
    const cases = [
      ...reads.flatMap(([path, description]) => SHAPES.map((shape) => [path, shape, description])),
      // The earlier shape's config-errors takes no filters at all.
      [`${T}/config-errors?name=%00`, 'current', `Query parameter name ${NUL}`],
    ];

    it.each(cases)('GET %s (%s shape)', async (path, shape, description) => {
      await expectError(await request(path, {}, shape), 400, description);
    });

    const writes: Array<[string, string, string]> = [
      ['DELETE', `${T}/nodeset-requests/%00`, `Path parameter request_id ${NUL}`],
      ['PUT', `${T}/nodes/%00`, `Path parameter node_id ${NUL}`],
      ['POST', `${T}/image/%00/build`, `Path parameter image_name ${NUL}`],
      ['DELETE', `${T}/image-build-artifact/%00`, `Path parameter artifact_id ${NUL}`],
      ['DELETE', `${T}/image-upload/%00`, `Path parameter upload_id ${NUL}`],
      ['POST', `${T}/image-upload/%00/validate`, `Path parameter upload_id ${NUL}`],
    ];

    it.each(writes)('%s %s (tenant admin)', async (method, path, description) => {
      const body = method === 'PUT' ? JSON.stringify({ state: 'hold' }) : undefined;
      await expectError(await request(path, { method, body, token: admin }), 400, description);
    });

    it('in a JSON body: the field is named, and free text may hold line breaks but no NUL', async () => {
      const enqueue = `${T}/project/org/project1/enqueue`;
      const nul = await request(enqueue, { method: 'POST', token: admin, body: '{"pipeline": "check\\u0000"}' });
      await expectError(nul, 400, `Body field pipeline ${NUL}`);
      const nested = await request(`${T}/promote`, {
        method: 'POST',
        token: admin,
        body: JSON.stringify({ pipeline: 'gate', changes: ['1,1', '2,1\u0000'] }),
      });
      await expectError(nested, 400, `Body field changes[1] ${NUL}`);
      const state = `${T}/state`;
      const multiline = await request(state, {
        method: 'POST',
        token: admin,
        body: JSON.stringify({ reason: 'two\nlines' }),
      });
      expect(multiline.status).toBe(200);
      const badReason = await request(state, {
        method: 'POST',
        token: admin,
        body: JSON.stringify({ reason: 'a\u0000' }),
      });
      await expectError(
        badReason,
        400,
        'Body field reason must not contain control characters other than tab and line breaks (found U+0000)',
      );
      const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
      const tooDeep = await request(state, { method: 'POST', token: admin, body: `{"reason": ${deep}}` });
      await expectError(tooDeep, 400, `Body field reason${'[0]'.repeat(31)} is nested deeper than 32 levels`);
    });

    it('identifiers longer than 512 bytes answer 400 (they would overflow a btree index row)', async () => {
      // Incompressible text: PostgreSQL compresses repetitive values below the index row limit.
      const long = Array.from({ length: 800 }, (_v, i) => ((i * 2654435761) >>> 0).toString(36)).join('');
      const autohold = await request(`${T}/project/org/project1/autohold`, {
        method: 'POST',
        token: admin,
        body: JSON.stringify({ job: long, count: 1, reason: long, node_hold_expiration: null }),
      });
      await expectError(autohold, 400, 'Body field job must be at most 512 bytes long');
      await expectError(
        await request(`${T}/builds?ref=${'r'.repeat(513)}`),
        400,
        'Query parameter ref must be at most 512 bytes long',
      );
    });

    it('in GraphQL: build(uuid: "\\u0000") is a BAD_USER_INPUT error naming the argument', async () => {
      const literal = await graphql(
        `{ tenant(name: "${TENANT}") { ... on Tenant { build(uuid: "\\u0000") { ... on Build { uuid } } } } }`,
      );
      expect(literal).toEqual({
        status: 200,
        body: {
          data: { tenant: { build: null } },
          errors: [
            expect.objectContaining({
              message: `uuid ${NUL}`,
              path: ['tenant', 'build'],
              extensions: { code: 'BAD_USER_INPUT', field: 'uuid' },
            }),
          ],
        },
      });
      const variable = await graphql(
        `query ($p: [String!]) { tenant(name: "${TENANT}") { ... on Tenant { builds(filter: { project: $p }) { nodes { uuid } } } } }`,
        { p: ['org/project1', 'x\u0000'] },
      );
      expect(variable.body.errors).toEqual([
        expect.objectContaining({
          message: `filter.project[1] ${NUL}`,
          extensions: { code: 'BAD_USER_INPUT', field: 'filter.project[1]' },
        }),
      ]);
    });

    it('in a GraphQL mutation: a typed InvalidInputError naming the input field', async () => {
      const result = await graphql(
        `
          mutation ($input: EnqueueInput!) {
            enqueue(input: $input) {
              __typename
              ... on InvalidInputError {
                field
                message
              }
            }
          }
        `,
        { input: { tenant: TENANT, project: 'org/project1', pipeline: 'check', change: '1,1\u0000' } },
        admin,
      );
      expect(result.body).toEqual({
        data: { enqueue: { __typename: 'InvalidInputError', field: 'change', message: `change ${NUL}` } },
      });
    });
  });

  describe('an autohold id of 2^63 or more answers 400, not a bigint error', () => {
    it('GET and DELETE T/autohold/{id}', async () => {
      const tooBig = 'Autohold id 9223372036854775808 is out of range (at most 9223372036854775807)';
      await expectError(await request(`${T}/autohold/9223372036854775808`), 400, tooBig);
      await expectError(
        await request(`${T}/autohold/9223372036854775808`, { method: 'DELETE', token: admin }),
        400,
        tooBig,
      );
      await expectError(
        await request(`${T}/autohold/9223372036854775807`),
        404,
        'Hold request 9223372036854775807 not found.',
      );
    });

    it('GraphQL Tenant.autohold(id)', async () => {
      const result = await graphql(
        `{ tenant(name: "${TENANT}") { ... on Tenant { autohold(id: "99999999999999999999") { __typename } } } }`,
      );
      expect(result.body.errors).toEqual([
        expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT', field: 'id' } }),
      ]);
    });
  });

  describe('a GraphQL document nested 5,000 deep is refused before parsing', () => {
    it('a list literal', async () => {
      const deep = `${'['.repeat(5000)}"x"${']'.repeat(5000)}`;
      const result = await graphql(
        `{ tenant(name: "${TENANT}") { ... on Tenant { builds(filter: { project: ${deep} }) { __typename } } } }`,
      );
      expect(result).toEqual({
        status: 400,
        body: {
          errors: [
            expect.objectContaining({
              message: 'Syntax Error: Nesting limit of 64 exceeded.',
              extensions: { code: 'GRAPHQL_PARSE_FAILED' },
            }),
          ],
        },
      });
      expect((await graphql('{ __typename }')).body).toEqual({ data: { __typename: 'Query' } });
    });
  });

  describe('tenant names are checked where a tenant is written', () => {
    /** No tenant-state row and no system event exist for these names. */
    const expectNothingWritten = async (tenants: string[]): Promise<void> => {
      const knex = contract.server.database.knex;
      const rows = await knex('tenant_state').whereIn('tenant', tenants).count({ n: '*' });
      const events = await knex('system_events').whereIn('tenant', tenants).count({ n: '*' });
      expect([Number(rows[0].n), Number(events[0].n)]).toEqual([0, 0]);
    };

    it('a root admin cannot set the event-queue state of a tenant named `*` (REST)', async () => {
      const res = await request('/api/tenant/*/state', {
        method: 'POST',
        token: rootAdmin,
        body: JSON.stringify({ trigger_queue_paused: true }),
      });
      await expectError(res, 400, 'Invalid tenant name "*": letters, digits and _.~- only');
      const unknown = await request('/api/tenant/nobody/state', {
        method: 'POST',
        token: rootAdmin,
        body: JSON.stringify({ trigger_queue_paused: true }),
      });
      await expectError(unknown, 404, 'Tenant not found');
      await expectNothingWritten(['*', 'nobody']);
    });

    it('GraphQL tenantStateSet: invalid name InvalidInputError, unknown tenant NotFoundError, nothing written', async () => {
      const set = (tenant: string) =>
        graphql(
          `
            mutation ($input: TenantStateSetInput!) {
              tenantStateSet(input: $input) {
                __typename
                ... on Error {
                  message
                }
                ... on InvalidInputError {
                  field
                }
              }
            }
          `,
          { input: { tenant, triggerQueuePaused: true } },
          rootAdmin,
        );
      expect((await set('*')).body).toEqual({
        data: {
          tenantStateSet: {
            __typename: 'InvalidInputError',
            field: 'tenant',
            message: 'Invalid tenant name "*": letters, digits and _.~- only',
          },
        },
      });
      expect((await set('nobody')).body).toEqual({
        data: { tenantStateSet: { __typename: 'NotFoundError', message: 'Tenant not found' } },
      });
      await expectNothingWritten(['*', 'nobody']);
    });

    it('autohold create and image build on `*`: 400 before any lookup', async () => {
      const autohold = await request('/api/tenant/*/project/org/project1/autohold', {
        method: 'POST',
        token: rootAdmin,
        body: JSON.stringify({ job: 'project-test', count: 1, reason: 'x', node_hold_expiration: null }),
      });
      await expectError(autohold, 400, 'Invalid tenant name "*": letters, digits and _.~- only');
      const image = await request('/api/tenant/*/image/debian/build', { method: 'POST', token: rootAdmin });
      await expectError(image, 400, 'Invalid tenant name "*": letters, digits and _.~- only');
    });
  });

  describe('enqueue-ref without revisions is accepted with zero revisions', () => {
    const lastEnqueue = async () =>
      (await contract.server.database
        .knex('engine_events')
        .where({ tenant: TENANT, event_type: 'enqueue' })
        .orderBy('id', 'desc')
        .first()) as { payload: Record<string, unknown> } | undefined;

    it.each([
      ['left out', {}],
      ['null', { oldrev: null, newrev: null }],
    ])('revisions %s', async (_how, revisions) => {
      const res = await request(`${T}/project/org/project1/enqueue`, {
        method: 'POST',
        token: admin,
        body: JSON.stringify({ trigger: 'gerrit', pipeline: 'check', ref: 'refs/heads/master', ...revisions }),
      });
      expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: true });
      expect((await lastEnqueue())?.payload).toMatchObject({
        ref: 'refs/heads/master',
        oldrev: ZERO_REVISION,
        newrev: ZERO_REVISION,
      });
    });

    it('GraphQL enqueue with only a ref', async () => {
      const result = await graphql(
        `
          mutation ($input: EnqueueInput!) {
            enqueue(input: $input) {
              __typename
            }
          }
        `,
        { input: { tenant: TENANT, project: 'org/project1', pipeline: 'check', ref: 'refs/heads/master' } },
        admin,
      );
      expect(result.body).toEqual({ data: { enqueue: { __typename: 'ManagementEventAccepted' } } });
      expect((await lastEnqueue())?.payload).toMatchObject({ oldrev: ZERO_REVISION, newrev: ZERO_REVISION });
    });
  });
});
