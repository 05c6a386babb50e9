/**
 * Hostile GraphQL documents for the GraphQL fuzz (test/integration/input-fuzz.test.ts): for every
 * field with arguments of `Query`, `Tenant` and `Mutation` (read from the schema, so a new field
 * is fuzzed without touching the test), documents passing hostile argument values as variables or
 * as literals; documents nested thousands deep, over the token limit or otherwise malformed.
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
  type GraphQLSchema,
} from 'graphql';
import { controlCharacterIn } from '../../src/model/value-checks';
import {
  CONTROL_STRINGS,
  HOSTILE_INTEGERS,
  type Random,
  hostileNumber,
  hostileString,
  nestedJsonText,
  randomJson,
} from './fuzz';

/** A request to `/graphql`. */
export interface Sent {
  document: string;
  variables?: Record<string, unknown>;
  /** The request body as sent, when JSON.stringify cannot write it (nesting too deep). */
  rawBody?: string;
  token?: string;
}

/** A field to fuzz and how to reach it. */
export interface FieldTarget {
  operation: 'query' | 'mutation';
  field: GraphQLField<unknown, unknown>;
  /** Reached through `tenant(name:) { ... on Tenant }`. */
  onTenant: boolean;
}

const PLAUSIBLE_STRINGS = [
  'tenant-one',
  'org/project1',
  'check',
  'gate',
  'master',
  'project-test',
  '1,1',
  'refs/heads/master',
];

/** Every field with arguments of `Query`, `Tenant` and `Mutation`. */
export function fieldTargets(schema: GraphQLSchema): FieldTarget[] {
  const fieldsOf = (name: string | undefined): Array<GraphQLField<unknown, unknown>> => {
    const type = name === undefined ? undefined : schema.getType(name);
    return type !== undefined && 'getFields' in type && !isInputObjectType(type) ? Object.values(type.getFields()) : [];
  };
  return [
    ...fieldsOf(schema.getQueryType()?.name).map((field) => ({ operation: 'query' as const, field, onTenant: false })),
    ...fieldsOf('Tenant').map((field) => ({ operation: 'query' as const, field, onTenant: true })),
    ...fieldsOf(schema.getMutationType()?.name).map((field) => ({
      operation: 'mutation' as const,
      field,
      onTenant: false,
    })),
  ].filter((target) => target.field.args.length > 0);
}

/** A value for an input type; sometimes one that breaks the type on purpose. */
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
    return Array.isArray(value)
      ? `[${value.map((item) => literal(inner.ofType, item)).join(', ')}]`
      : literal(inner.ofType, value);
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

export function selection(field: GraphQLField<unknown, unknown>): string {
  return isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
}

/** One document calling `field` (reached through `tenant(name:)` when `onTenant`). */
export function fieldDocument(random: Random, tenant: string, target: FieldTarget, asVariables: boolean): Sent {
  const { operation, field, onTenant } = target;
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
  const body = onTenant ? `tenant(name: ${JSON.stringify(tenant)}) { ... on Tenant { ${call} } }` : call;
  const header = declared.length > 0 ? `${operation} Fuzz(${declared.join(', ')})` : operation;
  return { document: `${header} { ${body} }`, variables: asVariables ? variables : undefined };
}

/** Documents the parser and validation must refuse without falling over. */
export function hostileDocuments(tenant: string): Sent[] {
  const deepList = (depth: number) => `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;
  const deepObject = (depth: number) => `${'{project: '.repeat(depth)}"x"${'}'.repeat(depth)}`;
  const onBuilds = (value: string) =>
    `{ tenant(name: "${tenant}") { ... on Tenant { builds(filter: {project: ${value}}) { __typename } } } }`;
  const documents: Sent[] = [];
  for (const depth of [100, 1000, 5000, 50_000]) {
    documents.push({ document: onBuilds(deepList(depth)) });
    documents.push({ document: onBuilds(deepObject(depth)) });
    documents.push({
      document: `{ ${'tenant(name: "x") { ... on Tenant { '.repeat(depth)}name${' } }'.repeat(depth)} }`,
    });
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
    documents.push({
      document: 'deep variables',
      rawBody: `{"query": "{ __typename }", "variables": {"deep": ${deep}}}`,
    });
    documents.push({
      document: 'deep variable of a list type',
      rawBody: `{"query": "query Q($p: [String!]) { tenant(name: \\"${tenant}\\") { ... on Tenant { builds(filter: {project: $p}) { __typename } } } }", "variables": {"p": ${deep}}}`,
    });
  }
  return documents;
}

/** True when the identifier rule refuses `value` (tab, line feed and carriage return pass in free text only). */
export function hasRefusedCharacter(value: string): boolean {
  return controlCharacterIn(value, 'free-text') !== null;
}

/** A value of `type` whose every string is `bad`; undefined when the type holds no string. */
export function stringsReplaced(type: GraphQLInputType, bad: string): unknown {
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
