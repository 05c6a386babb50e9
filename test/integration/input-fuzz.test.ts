/**
 * Fuzz of every REST route and of the GraphQL API (docs/rest.md#input-rules,
 * docs/graphql.md#input-rules). REST: each path x method x shape of the route table in
 * rest-compat/ (a new route is fuzzed without touching this file) gets hostile path segments,
 * query parameters and JSON bodies, with and without tokens, plus methods the route does not
 * have. GraphQL: every field with arguments (read from the schema) gets hostile values as
 * variables and as literals, and documents nested thousands deep are sent. Nothing may answer 5xx
 * or carry a masked unexpected error. The seeds are fixed: every run sends the same requests, and
 * a failure prints them.
 */
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { REST_ROUTES } from '../../rest-compat';
import { schema } from '../../schema';
import { CONTROL_STRINGS, Random } from '../helpers/fuzz';
import {
  fieldDocument,
  fieldTargets,
  hasRefusedCharacter,
  hostileDocuments,
  selection,
  stringsReplaced,
  type Sent,
} from '../helpers/fuzz-graphql';
import { ANY_METHODS, restRequest, type FuzzRequest } from '../helpers/fuzz-rest';
import { adminToken, liveTestConfig, Subscription } from '../helpers/live';
import { SHAPES } from '../helpers/openapi-documents';
import { useRestContract } from '../helpers/rest-contract';

const TENANT = 'tenant-one';
/** REST requests per path x method x shape. */
const REST_ROUNDS = 12;
/** GraphQL documents per field and argument style (variables, literals). */
const GRAPHQL_ROUNDS = 6;

describe('input fuzz: no input answers 5xx', () => {
  const config = liveTestConfig();
  const contract = useRestContract({
    config: {
      auth: config.auth,
      // Thousands of control calls in a row: lift the per-token rate limit (tested in auth/wiring-graphql).
      graphql: { ...config.graphql, controlRateLimit: { burst: 100_000, perMinute: 100_000 } },
    },
  });
  const admin = adminToken(TENANT);
  const rootAdmin = adminToken('*');

  it('REST: every route, both shapes, hostile paths, parameters, bodies and methods', async () => {
    const random = new Random(20_2604);
    const target = {
      tenant: TENANT,
      tokens: [admin, admin, rootAdmin],
      plausible: {
        project_name: ['org/project1', 'org/nope'],
        pipeline_name: ['gate', 'check'],
        branch_name: ['master'],
        job_name: ['project-test', 'base'],
        change: ['1,1', '2,1', '1'],
        request_id: ['1', '0000000001'],
        uuid: [contract.uuids.buildOne, contract.uuids.buildsetOne],
      },
    };
    const requests: FuzzRequest[] = [];
    for (const route of REST_ROUTES) {
      for (const shape of SHAPES) {
        for (let round = 0; round < REST_ROUNDS; round++) {
          for (const method of Object.keys(route.endpoints)) {
            requests.push(restRequest(random, route, method, shape, target));
          }
          if (round % 4 === 0) {
            requests.push(restRequest(random, route, random.pick(ANY_METHODS), shape, target));
          }
        }
      }
    }
    const failures: string[] = [];
    for (const request of requests) {
      const res = await fetch(`${contract.server.url}${request.path}`, {
        method: request.method,
        headers: request.headers,
        body: request.body,
      });
      const text = await res.text();
      if (res.status >= 500) {
        const body = (request.body ?? '').slice(0, 200);
        failures.push(
          `${request.method} ${request.path.slice(0, 300)} body=${body} -> ${res.status} ${text.slice(0, 200)}`,
        );
      }
    }
    expect({ requests: requests.length, failures }).toEqual({ requests: requests.length, failures: [] });
  }, 120_000);

  /** The failure of one GraphQL request (a 5xx, a body that is not JSON, a masked error), or null. */
  async function graphqlFailure(sent: Sent): Promise<string | null> {
    const res = await fetch(`${contract.server.url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(sent.token === undefined ? {} : { authorization: `Bearer ${sent.token}` }),
      },
      body: sent.rawBody ?? JSON.stringify({ query: sent.document, variables: sent.variables }),
    });
    const text = await res.text();
    let reply: { errors?: Array<{ message: string }> } | null = null;
    try {
      reply = JSON.parse(text) as { errors?: Array<{ message: string }> };
    } catch {
      reply = null;
    }
    const masked = reply?.errors?.some((error) => error.message === 'Unexpected error.') ?? false;
    if (res.status < 500 && reply !== null && !masked) {
      return null;
    }
    const variables = JSON.stringify(sent.variables ?? {}).slice(0, 300);
    return `${sent.document.slice(0, 300)} variables=${variables} -> ${res.status} ${text.slice(0, 300)}`;
  }

  it('GraphQL: every field with arguments, hostile values as variables and literals, deep documents', async () => {
    const random = new Random(20_2605);
    const sent: Sent[] = [];
    for (const target of fieldTargets(schema)) {
      for (let round = 0; round < GRAPHQL_ROUNDS; round++) {
        for (const asVariables of [true, false]) {
          const token = random.chance(0.7) ? admin : random.chance(0.5) ? rootAdmin : undefined;
          sent.push({ ...fieldDocument(random, TENANT, target, asVariables), token });
        }
      }
    }
    sent.push(...hostileDocuments(TENANT));
    const failures: string[] = [];
    for (const one of sent) {
      const failure = await graphqlFailure(one);
      if (failure !== null) {
        failures.push(failure);
      }
    }
    expect({ documents: sent.length, failures }).toEqual({ documents: sent.length, failures: [] });
  }, 120_000);

  it('GraphQL subscriptions: control characters in arguments answer BAD_USER_INPUT', async () => {
    const client = createClient({
      url: `${contract.server.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${admin}` },
    });
    const failures: string[] = [];
    let checked = 0;
    try {
      for (const field of Object.values(schema.getSubscriptionType()?.getFields() ?? {})) {
        for (const bad of CONTROL_STRINGS.filter(hasRefusedCharacter)) {
          // The tenant is real (an unknown one is refused before its arguments are read); every
          // other string of the arguments carries the control character.
          const variables: Record<string, unknown> = {};
          for (const arg of field.args) {
            variables[arg.name] = arg.name === 'tenant' ? TENANT : stringsReplaced(arg.type, bad);
          }
          const args = field.args.filter((arg) => variables[arg.name] !== undefined);
          if (!args.some((arg) => arg.name !== 'tenant')) {
            continue;
          }
          const declared = args.map((arg) => `$${arg.name}: ${arg.type.toString()}`).join(', ');
          const passed = args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
          const document = `subscription Fuzz(${declared}) { ${field.name}(${passed})${selection(field)} }`;
          const [result] = await new Subscription(client, document, variables).waitFor(1);
          checked++;
          const codes = (result.errors ?? []).map((error) => error.extensions?.code ?? error.message);
          if (!codes.includes('BAD_USER_INPUT')) {
            failures.push(`${field.name} ${JSON.stringify(variables)} -> ${JSON.stringify(result)}`);
          }
        }
      }
    } finally {
      await client.dispose();
    }
    expect({ checked: checked > 0, failures }).toEqual({ checked: true, failures: [] });
  });
});
