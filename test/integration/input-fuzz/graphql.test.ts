/**
 * Fuzz of the GraphQL API (docs/graphql.md#input-rules): every field with arguments of `Query`,
 * `Tenant` and `Mutation` — read from the schema, so a new field is fuzzed without touching this
 * file — gets hostile argument values as variables and as literals, with and without an admin
 * token; documents nested thousands deep and over the token limit are sent too. No response may
 * be a 5xx or carry a masked unexpected error; subscriptions given control characters must
 * answer with an input error. The seed is fixed, so every run sends the same documents.
 */
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { schema } from '../../../schema';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { adminToken, liveTestConfig, Subscription } from '../../helpers/live';
import { useRestContract } from '../../helpers/rest-contract';
import {
  CONTROL_STRINGS,
  HOSTILE_INTEGERS,
  Random,
  hostileNumber,
  hostileString,
  nestedJsonText,
  randomJson,
} from '../../helpers/fuzz';

const SEED = 20_2605;
/** Documents per field and argument style (variables, literals). */
const ROUNDS = 6;
const TENANT = 'tenant-one';
const PLAUSIBLE_STRINGS = [TENANT, 'org/project1', 'check', 'gate', 'master', 'project-test', '1,1', 'refs/heads/master'];

interface Sent {
  document: string;
  variables?: Record<string, unknown>;
  /** The request body as sent, when JSON.stringify cannot write it (nesting too deep). */
  rawBody?: string;
  token?: string;
}

interface GraphQLReply {
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

/** A value for an input type; `wrong` sometimes breaks the type on purpose. */
function valueFor(random: Random, type: GraphQLInputType, depth = 0): unknown {
  if (isNonNullType(type)) {
    return random.chance(0.03) ? null : valueFor(random, type.ofType, depth);
  }
  if (random.chance(0.05)) {
    return null;
  }
  if (isListType(type)) {
    if (random.chance(0.1)) {
      return valueFor(random, type.ofType, depth + 1);
    }
    return Array.from({ length: random.below(3) + 1 }, () => valueFor(random, type.ofType, depth + 1));
  }
  if (isInputObjectType(type)) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields())) {
      if (isNonNullType(field.type) || random.chance(0.6)) {
        value[field.name] = valueFor(random, field.type, depth + 1);
      }
    }
    return value;
  }
  if (isEnumType(type)) {
    return random.chance(0.9) ? random.pick(type.getValues()).name : 'NOT_A_VALUE';
  }
  switch (type.name) {
    case 'Int':
      return random.chance(0.5) ? hostileNumber(random) : Number(random.pick(HOSTILE_INTEGERS));
    case 'Float':
      return hostileNumber(random);
    case 'Boolean':
      return random.chance(0.9) ? random.chance(0.5) : 'yes';
    case 'JSON':
      return randomJson(random);
    default:
      if (random.chance(0.25)) {
        return random.pick(PLAUSIBLE_STRINGS);
      }
      return random.chance(0.5) ? random.pick(CONTROL_STRINGS) : hostileString(random);
  }
}

/** `value` written as a GraphQL literal of `type` (enum values bare, object keys unquoted). */
function literal(type: GraphQLInputType, value: unknown): string {
  if (value === null || value === undefined) {
    return 'null';
  }
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    return Array.isArray(value) ? `[${value.map((item) => literal(inner.ofType, item)).join(', ')}]` : literal(inner.ofType, value);
  }
  if (isInputObjectType(inner) && typeof value === 'object' && !Array.isArray(value)) {
    const fields = inner.getFields();
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => `${key}: ${literal(fields[key]?.type ?? inner, item)}`)
      .join(', ')}}`;
  }
  if (isEnumType(inner) && typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) ? String(value) : '0';
  }
  return JSON.stringify(value);
}

function selection(field: GraphQLField<unknown, unknown>): string {
  return isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
}

/** One document calling `field` (reached through `tenant(name:)` when `onTenant`). */
function documentFor(
  random: Random,
  operation: 'query' | 'mutation',
  field: GraphQLField<unknown, unknown>,
  onTenant: boolean,
  asVariables: boolean,
): Sent {
  const args = field.args.filter((arg: GraphQLArgument) => isNonNullType(arg.type) || random.chance(0.7));
  const variables: Record<string, unknown> = {};
  const declared: string[] = [];
  const passed = args.map((arg) => {
    const value = valueFor(random, arg.type);
    if (asVariables) {
      variables[arg.name] = value;
      declared.push(`$${arg.name}: ${arg.type.toString()}`);
      return `${arg.name}: $${arg.name}`;
    }
    return `${arg.name}: ${literal(arg.type, value)}`;
  });
  const call = `${field.name}${passed.length > 0 ? `(${passed.join(', ')})` : ''}${selection(field)}`;
  const body = onTenant ? `tenant(name: ${JSON.stringify(TENANT)}) { ... on Tenant { ${call} } }` : call;
  const header = declared.length > 0 ? `${operation} Fuzz(${declared.join(', ')})` : operation;
  return { document: `${header} { ${body} }`, variables: asVariables ? variables : undefined };
}

/** Documents the parser and validation must refuse without falling over. */
function hostileDocuments(): Sent[] {
  const deepList = (depth: number) => `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;
  const deepObject = (depth: number) => `${'{project: '.repeat(depth)}"x"${'}'.repeat(depth)}`;
  const onBuilds = (value: string) =>
    `{ tenant(name: "${TENANT}") { ... on Tenant { builds(filter: {project: ${value}}) { __typename } } } }`;
  const documents: Sent[] = [];
  for (const depth of [100, 1000, 5000, 50_000]) {
    documents.push({ document: onBuilds(deepList(depth)) });
    documents.push({ document: onBuilds(deepObject(depth)) });
    documents.push({ document: `{ ${'tenant(name: "x") { ... on Tenant { '.repeat(depth)}name${' } }'.repeat(depth)} }` });
    documents.push({ document: `query Q($v: ${'['.repeat(depth)}String${']'.repeat(depth)}) { __typename }` });
  }
  documents.push({ document: `{ ${'__typename '.repeat(20_000)}}` });
  documents.push({ document: `{ ${Array.from({ length: 500 }, (_v, i) => `a${i}: __typename`).join(' ')} }` });
  documents.push({ document: 'query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }' });
  documents.push({ document: '{ __typename @skip(if: false) '.repeat(200) + '}' });
  documents.push({ document: '{ tenant(name: "\\u0000") { __typename } }' });
  documents.push({ document: '\u0000{ __typename }' });
  for (const depth of [5000, 50_000]) {
    const deep = nestedJsonText(depth);
    documents.push({ document: 'deep variables', rawBody: `{"query": "{ __typename }", "variables": {"deep": ${deep}}}` });
    documents.push({
      document: 'deep variable of a list type',
      rawBody: `{"query": "query Q($p: [String!]) { tenant(name: \\"${TENANT}\\") { ... on Tenant { builds(filter: {project: $p}) { __typename } } } }", "variables": {"p": ${deep}}}`,
    });
  }
  return documents;
}

describe('GraphQL fuzz: no input answers 5xx or an unexpected error', () => {
  const config = liveTestConfig();
  const contract = useRestContract({
    config: {
      auth: config.auth,
      graphql: { ...config.graphql, controlRateLimit: { burst: 100_000, perMinute: 100_000 } },
    },
  });

  async function send(sent: Sent): Promise<string | null> {
    const res = await fetch(`${contract.server.url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(sent.token === undefined ? {} : { authorization: `Bearer ${sent.token}` }),
      },
      body: sent.rawBody ?? JSON.stringify({ query: sent.document, variables: sent.variables }),
    });
    const text = await res.text();
    let reply: GraphQLReply | null = null;
    try {
      reply = JSON.parse(text) as GraphQLReply;
    } catch {
      reply = null;
    }
    const masked = reply?.errors?.some((error) => error.message === 'Unexpected error.') ?? false;
    if (res.status >= 500 || reply === null || masked) {
      return `${sent.document.slice(0, 300)} variables=${JSON.stringify(sent.variables ?? {}).slice(0, 300)} -> ${res.status} ${text.slice(0, 300)}`;
    }
    return null;
  }

  it('sends every field with arguments hostile values, as variables and as literals', async () => {
    const random = new Random(SEED);
    const admin = adminToken(TENANT);
    const sent: Sent[] = [];
    const queryFields = Object.values(schema.getQueryType()?.getFields() ?? {});
    const tenantType = schema.getType('Tenant');
    const tenantFields = tenantType && 'getFields' in tenantType ? Object.values(tenantType.getFields()) : [];
    const mutationFields = Object.values(schema.getMutationType()?.getFields() ?? {});
    const targets: Array<['query' | 'mutation', GraphQLField<unknown, unknown>, boolean]> = [
      ...queryFields.map((field): ['query', GraphQLField<unknown, unknown>, boolean] => ['query', field, false]),
      ...(tenantFields as GraphQLField<unknown, unknown>[]).map(
        (field): ['query', GraphQLField<unknown, unknown>, boolean] => ['query', field, true],
      ),
      ...mutationFields.map((field): ['mutation', GraphQLField<unknown, unknown>, boolean] => ['mutation', field, false]),
    ];
    for (const [operation, field, onTenant] of targets.filter(([, field]) => field.args.length > 0)) {
      for (let round = 0; round < ROUNDS; round++) {
        for (const asVariables of [true, false]) {
          const document = documentFor(random, operation, field, onTenant, asVariables);
          sent.push({ ...document, token: random.chance(0.7) ? admin : random.chance(0.5) ? adminToken('*') : undefined });
        }
      }
    }
    sent.push(...hostileDocuments());
    const failures: string[] = [];
    for (const one of sent) {
      const failure = await send(one);
      if (failure !== null) {
        failures.push(failure);
      }
    }
    expect({ documents: sent.length, failures }).toEqual({ documents: sent.length, failures: [] });
  }, 120_000);

  it('refuses control characters in subscription arguments with an input error', async () => {
    const fields = Object.values(schema.getSubscriptionType()?.getFields() ?? {});
    const client = createClient({
      url: `${contract.server.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${adminToken(TENANT)}` },
    });
    const failures: string[] = [];
    let checked = 0;
    try {
      for (const field of fields) {
        for (const bad of CONTROL_STRINGS.filter((value) => hasRefusedCharacter(value))) {
          // The tenant is real (an unknown one is refused before its arguments are read); every
          // other string in the arguments carries the control character.
          const variables: Record<string, unknown> = {};
          for (const arg of field.args) {
            variables[arg.name] = arg.name === 'tenant' ? TENANT : stringsReplaced(arg.type, bad);
          }
          if (!Object.entries(variables).some(([name, value]) => name !== 'tenant' && value !== undefined)) {
            continue;
          }
          const args = field.args.filter((arg) => variables[arg.name] !== undefined);
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

/** True when the identifier rule refuses `value` (tab, line feed and carriage return are allowed in free text only). */
function hasRefusedCharacter(value: string): boolean {
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value);
}

/** A value of `type` whose every string is `bad`; undefined when the type holds no string. */
function stringsReplaced(type: GraphQLInputType, bad: string): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    const item = stringsReplaced(inner.ofType, bad);
    return item === undefined ? undefined : [item];
  }
  if (isInputObjectType(inner)) {
    const entries = Object.values(inner.getFields())
      .map((field) => [field.name, stringsReplaced(field.type, bad)] as const)
      .filter(([, value]) => value !== undefined);
    return entries.length === 0 ? undefined : Object.fromEntries(entries);
  }
  return getNamedType(inner).name === 'String' ? bad : undefined;
}
