/**
 * The input-hygiene builder plugin (docs/graphql.md#input-rules) on a small schema of its own:
 * refused arguments never reach the resolver, with graphql-js (yoga) and graphql-jit (the REST
 * runner) alike; typed InvalidInputError where the field's union has it, BAD_USER_INPUT elsewhere.
 */
import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import { execute, parse, type ExecutionResult } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import InputHygienePlugin, { FREE_TEXT } from '../../../schema/infra/input-hygiene';
import { InvalidInputError } from '../../../schema/infra/error-classes';

const calls: unknown[] = [];

function buildSchema() {
  const builder = new SchemaBuilder<{ Scalars: { JSON: { Input: unknown; Output: unknown } } }>({
    plugins: [ErrorsPlugin, InputHygienePlugin],
    errors: { defaultTypes: [] },
    // Required by the option types of the project's builder plugins (global); unused here.
    scopeAuth: { authScopes: () => ({}) },
  });
  builder.scalarType('JSON', { serialize: (value) => value, parseValue: (value) => value });
  builder.objectType(InvalidInputError, {
    name: 'InvalidInputError',
    fields: (t) => ({ message: t.exposeString('message'), field: t.exposeString('field') }),
  });
  const Filter = builder.inputType('Filter', {
    fields: (t) => ({
      project: t.stringList(),
      change: t.intList(),
      note: t.string({ extensions: FREE_TEXT }),
    }),
  });
  builder.queryType({
    fields: (t) => ({
      build: t.string({
        args: { uuid: t.arg.string({ required: true }) },
        resolve: (_root, args) => {
          calls.push(args);
          return 'found';
        },
      }),
      builds: t.string({
        args: { filter: t.arg({ type: Filter }), data: t.arg({ type: 'JSON' }) },
        resolve: (_root, args) => {
          calls.push(args);
          return 'listed';
        },
      }),
      count: t.int({ resolve: () => 1 }),
    }),
  });
  const Held = builder.objectRef<{ ok: boolean }>('Held').implement({ fields: (t) => ({ ok: t.exposeBoolean('ok') }) });
  builder.mutationType({
    fields: (t) => ({
      hold: t.field({
        type: Held,
        args: { reason: t.arg.string({ required: true, extensions: FREE_TEXT }), job: t.arg.string() },
        errors: { types: [InvalidInputError], directResult: true },
        resolve: (_root, args) => {
          calls.push(args);
          return { ok: true };
        },
      }),
    }),
  });
  return builder.toSchema();
}

const schema = buildSchema();

/** Runs `source` with graphql-js and with graphql-jit; both results must be the same. */
async function run(source: string, variables: Record<string, unknown> = {}): Promise<ExecutionResult> {
  const document = parse(source);
  const interpreted = JSON.parse(
    JSON.stringify(await execute({ schema, document, variableValues: variables, contextValue: {} })),
  ) as ExecutionResult;
  const compiled = compileQuery(schema, document);
  if (!isCompiledQuery(compiled)) {
    throw new Error('does not compile');
  }
  const jit = JSON.parse(JSON.stringify(await compiled.query(undefined, {}, variables))) as ExecutionResult;
  expect(jit).toEqual(interpreted);
  return interpreted;
}

beforeEach(() => {
  calls.length = 0;
});

describe('input hygiene plugin', () => {
  it('refuses a control character in a string argument before the resolver runs', async () => {
    const result = await run('{ build(uuid: "a\\u0000b") }');
    expect(result).toEqual({
      data: { build: null },
      errors: [
        expect.objectContaining({
          message: 'uuid must not contain control characters (found U+0000)',
          extensions: { code: 'BAD_USER_INPUT', field: 'uuid' },
        }),
      ],
    });
    expect(calls).toEqual([]);
    expect(await run('{ build(uuid: "ok") }')).toEqual({ data: { build: 'found' } });
  });

  it('names the path inside input objects, lists and JSON values', async () => {
    const query = 'query ($f: Filter, $d: JSON) { builds(filter: $f, data: $d) }';
    const inList = await run(query, { f: { project: ['org/a', 'org/\u001fb'], change: [1] } });
    expect(inList.errors?.[0]).toMatchObject({
      message: 'filter.project[1] must not contain control characters (found U+001F)',
      extensions: { field: 'filter.project[1]' },
    });
    const inJson = await run(query, { d: { list: [{ name: 'x\u007f' }] } });
    expect(inJson.errors?.[0]).toMatchObject({ extensions: { field: 'data.list[0].name' } });
    expect(calls).toEqual([]);
  });

  it('lets free text hold tab and line breaks, but no other control character', async () => {
    const query = 'query ($f: Filter) { builds(filter: $f) }';
    expect(await run(query, { f: { note: 'two\nlines\r\n\tindented' } })).toEqual({ data: { builds: 'listed' } });
    expect((await run(query, { f: { note: 'bell\u0007' } })).errors?.[0]).toMatchObject({
      message: 'filter.note must not contain control characters other than tab and line breaks (found U+0007)',
    });
    expect((await run(query, { f: { project: ['two\nlines'] } })).errors?.[0]).toMatchObject({
      extensions: { field: 'filter.project[0]' },
    });
  });

  it('answers the typed InvalidInputError where the field has one', async () => {
    const result = await run(
      'mutation ($job: String) { hold(reason: "flaky\\ntest", job: $job) { __typename ... on InvalidInputError { field message } } }',
      { job: '\u0000' },
    );
    expect(result).toEqual({
      data: {
        hold: {
          __typename: 'InvalidInputError',
          field: 'job',
          message: 'job must not contain control characters (found U+0000)',
        },
      },
    });
    expect(calls).toEqual([]);
  });

  it('walks JSON values nested far deeper than the stack allows', async () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) {
      deep = [deep];
    }
    const document = parse('query ($d: JSON) { builds(data: $d) }');
    const result = await execute({ schema, document, variableValues: { d: deep }, contextValue: {} });
    expect(result.errors?.[0].message).toBe(`data${'[0]'.repeat(32)} is nested deeper than 32 levels`);
  });

  it('leaves fields without arguments unwrapped', async () => {
    expect(await run('{ count }')).toEqual({ data: { count: 1 } });
  });
});
