/** GraphQL limits in the assembled server: depth, cost and size refused over HTTP and WebSocket. */
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { liveTestConfig, startLiveServer, Subscription, wsClient, type LiveServer } from '../../helpers/live';

/** Depth 5 (info, capabilities, auth, realms, name): over the limit of 3. */
const TOO_DEEP = '{ info { capabilities { auth { realms { name } } } } }';
/** Depth 3, but its estimated cost is over 25. */
const TOO_COSTLY =
  '{ info { version restShape websocketUrl capabilities { jobHistory } } tenants { name } x: info { version restShape websocketUrl capabilities { jobHistory } } }';
const TOO_MANY_ALIASES = '{ a: info { version } b: info { version } c: info { version } d: info { version } }';

describe('GraphQL limits of the running server', () => {
  let db: TestDatabase;
  let server: LiveServer;
  const clients: Client[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const config = liveTestConfig();
    server = await startLiveServer(db, {
      config: {
        ...config,
        graphql: { ...config.graphql, maxDepth: 3, maxCost: 25, maxAliases: 3, maxBodyBytes: 4096 },
      },
    });
  });

  afterAll(async () => {
    for (const client of clients) {
      await client.dispose();
    }
    await server.stop();
    await db.destroy();
  });

  const post = (body: string) =>
    fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('refuses too deep, too costly, too many aliases and oversized requests over HTTP', async () => {
    const errorsOf = async (query: string) =>
      ((await (await post(JSON.stringify({ query }))).json()) as { errors?: Array<{ message: string }> }).errors;
    expect(await errorsOf('{ info { version } }')).toBeUndefined();
    expect((await errorsOf(TOO_DEEP))?.[0]?.message).toMatch(/Query depth limit of 3 exceeded, found 5/);
    expect((await errorsOf(TOO_COSTLY))?.[0]?.message).toMatch(/Query Cost limit of 25 exceeded/);
    expect((await errorsOf(TOO_MANY_ALIASES))?.[0]?.message).toMatch(/Aliases limit of 3 exceeded/);
    const oversized = await post(JSON.stringify({ query: `{ info { version } } # ${'x'.repeat(5000)}` }));
    expect(oversized.status).toBe(413);
  });

  it('refuses the same over WebSocket, ending only that operation', async () => {
    const client = wsClient(server);
    clients.push(client);
    const firstError = async (query: string) =>
      (await new Subscription(client, query).waitFor(1))[0]?.errors?.[0]?.message;
    expect(await firstError(TOO_DEEP)).toMatch(/Query depth limit of 3 exceeded, found 5/);
    expect(await firstError(TOO_COSTLY)).toMatch(/Query Cost limit of 25 exceeded/);
    expect(await firstError(TOO_MANY_ALIASES)).toMatch(/Aliases limit of 3 exceeded/);
    // Each validation error once (graphql's own rules are not applied twice).
    const unknownField = await new Subscription(client, '{ info { noSuchField } }').waitFor(1);
    expect(unknownField[0]?.errors?.map((e) => e.message)).toEqual([
      'Cannot query field "noSuchField" on type "Info".',
    ]);
    // The socket carries on.
    const fine = new Subscription<{ info: { version: string } }>(client, '{ info { version } }');
    expect((await fine.waitFor(1))[0]?.data?.info.version).toEqual(expect.any(String));
  });

  it('closes a WebSocket whose message is over maxBodyBytes (1009 Message Too Big)', async () => {
    const socket = new WebSocket(server.wsUrl, 'graphql-transport-ws');
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise<number>((resolve) => socket.once('close', (code: number) => resolve(code)));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { padding: 'x'.repeat(5000) } }));
    expect(await closed).toBe(1009);
  });
});
