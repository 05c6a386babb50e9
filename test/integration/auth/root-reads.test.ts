/**
 * Root-level reads under `api-root` access rules (components, connections, tenants) and the
 * read-protection flags of `info` and `Tenant.info`, through a real server.
 */
import { tenantFilePolicies } from '../../../src/auth/gate';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { defaultRef, historyFactory } from '../../helpers/factories';
import { adminToken, startLiveServer, type LiveServer } from '../../helpers/live';
import { memoryLayout } from '../../helpers/memory-layout';

const RESTRICTED = 'restricted';
const OPEN = 'open';

interface Answer {
  status: number;
  body: {
    data?: Record<string, unknown> | null;
    errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
  };
}

describe('root reads and read protection over GraphQL', () => {
  let db: TestDatabase;
  let server: LiveServer;
  const reader = () => adminToken('nowhere', { role: 'reader' });
  const stranger = () => adminToken('nowhere');

  async function post(query: string, token?: string): Promise<Answer> {
    const res = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({ query }),
    });
    return { status: res.status, body: (await res.json()) as Answer['body'] };
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    const layout = memoryLayout([{ name: 'org/project', branches: { master: {} } }]);
    const policies = tenantFilePolicies({
      rules: [{ name: 'readers', conditions: [{ role: 'reader' }] }],
      tenants: [{ name: RESTRICTED, accessRules: ['readers'] }, { name: OPEN }],
      apiRoot: { accessRules: ['readers'] },
    });
    server = await startLiveServer(db, {
      tenants: { tenantNames: () => [RESTRICTED, OPEN], layout: () => layout },
      policies: () => policies,
    });
  });

  afterAll(async () => {
    await server.stop();
    await db.destroy();
  });

  it.each(['{ components { kind } }', '{ connections { name } }', '{ tenants { name } }'])(
    '%s: 401 anonymously, 403 without read access, data for a reader',
    async (query) => {
      const anonymous = await post(query);
      expect({ status: anonymous.status, code: anonymous.body.errors?.[0]?.extensions?.code }).toEqual({
        status: 401,
        code: 'UNAUTHENTICATED',
      });
      const refused = await post(query, stranger());
      expect({ status: refused.status, code: refused.body.errors?.[0]?.extensions?.code }).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
      const allowed = await post(query, reader());
      expect(allowed.body.errors).toBeUndefined();
      expect(allowed.status).toBe(200);
    },
  );

  it('serves info to anyone and says that the root is read protected', async () => {
    const answer = await post('{ info { capabilities { auth { readProtected } } } }');
    expect(answer).toEqual({
      status: 200,
      body: { data: { info: { capabilities: { auth: { readProtected: true } } } } },
    });
  });

  it("reports each tenant's read protection in Tenant.info", async () => {
    const query = (tenant: string) => `{ tenant(name: "${tenant}") { ... on Tenant { info { readProtected } } } }`;
    expect((await post(query(RESTRICTED), reader())).body.data).toEqual({ tenant: { info: { readProtected: true } } });
    expect((await post(query(OPEN))).body.data).toEqual({ tenant: { info: { readProtected: false } } });
  });

  it('hides records of a read-protected tenant from node(id) and nodes(ids) (global ids are guessable)', async () => {
    const history = historyFactory(db.knex);
    const ids = async (tenant: string) => {
      const set = await history.buildset({
        tenant,
        pipeline: 'check',
        refs: [defaultRef({ project: `org/${tenant}-only` })],
      });
      const build = await history.build(set, { result: 'SUCCESS' });
      const event = await history.systemEvent(tenant, 'reconfigured');
      const global = (type: string, id: number) => Buffer.from(`${type}:${id}`).toString('base64');
      return [
        global('Build', build.id),
        global('Buildset', set.buildset.id),
        global('Ref', set.refs[0].id),
        global('SystemEvent', event.id),
      ];
    };
    const hidden = await ids(RESTRICTED);
    const visible = await ids(OPEN);
    const query = (list: string[]) => `{ nodes(ids: ${JSON.stringify(list)}) { id } }`;
    const shown = (answer: Answer) =>
      (answer.body.data?.nodes as Array<{ id: string } | null>).map((node) => node?.id ?? null);

    expect(shown(await post(query([...hidden, ...visible])))).toEqual([null, null, null, null, ...visible]);
    expect(shown(await post(query(hidden), stranger()))).toEqual([null, null, null, null]);
    expect(shown(await post(query(hidden), reader()))).toEqual(hidden);
    const single = await post(`{ node(id: "${hidden[0]}") { id } }`);
    expect(single.body.data).toEqual({ node: null });
  });

  it('answers tenantInfo and REST T/info without a token, even for a read-protected tenant (dashboards need the realm to log in)', async () => {
    const answer = await post(
      `{ tenantInfo(name: "${RESTRICTED}") { readProtected } missing: tenantInfo(name: "nope") { readProtected } }`,
    );
    expect(answer).toEqual({ status: 200, body: { data: { tenantInfo: { readProtected: true }, missing: null } } });
    const rest = await fetch(`${server.url}/api/tenant/${RESTRICTED}/info`);
    expect(rest.status).toBe(200);
    const body = (await rest.json()) as {
      info: { tenant: string; capabilities: { auth: { read_protected: boolean } } };
    };
    expect({ tenant: body.info.tenant, readProtected: body.info.capabilities.auth.read_protected }).toEqual({
      tenant: RESTRICTED,
      readProtected: true,
    });
  });
});
