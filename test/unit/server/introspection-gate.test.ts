/**
 * docs/live.md#introspection: an introspection-only document is executed once and then answered
 * from the cache (concurrent identical requests share the one execution), with the same JSON;
 * anything else, or an answer with errors, is executed each time.
 */
import { getIntrospectionQuery, parse } from 'graphql';
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { isIntrospectionOnly, useIntrospectionGate } from '../../../src/server/introspection-gate';

function server(): {
  fetch: (query: string, variablesJson?: string) => Promise<{ status: number; text: string }>;
  executions: () => number;
} {
  let executions = 0;
  let ticks = 0;
  // Counts the executions that really run (it sits before the gate, which calls it).
  const countExecutions: Plugin = {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn((args) => {
        executions += 1;
        return executeFn(args);
      });
    },
  };
  const yoga = createYoga({
    schema: createSchema({ typeDefs: 'type Query { tick: Int! }', resolvers: { Query: { tick: () => (ticks += 1) } } }),
    plugins: [countExecutions, useIntrospectionGate(1)],
    logging: false,
  });
  return {
    executions: () => executions,
    fetch: async (query, variablesJson) => {
      const response = await yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body:
          variablesJson === undefined
            ? JSON.stringify({ query })
            : `{"query": ${JSON.stringify(query)}, "variables": ${variablesJson}}`,
      });
      return { status: response.status, text: await response.text() };
    },
  };
}

describe('introspection gate', () => {
  it('tells introspection-only operations from the others', () => {
    expect(isIntrospectionOnly(parse(getIntrospectionQuery()))).toBe(true);
    expect(isIntrospectionOnly(parse('{ __typename __type(name: "Query") { name } }'))).toBe(true);
    expect(isIntrospectionOnly(parse('{ __typename tick }'))).toBe(false);
    expect(isIntrospectionOnly(parse('{ ...F } fragment F on Query { __typename }'))).toBe(false);
    expect(isIntrospectionOnly(parse('query A { tick } query B { __typename }'), 'B')).toBe(true);
  });

  it('executes a full introspection once for 20 concurrent and 5 later requests, with identical answers', async () => {
    const { fetch, executions } = server();
    const query = getIntrospectionQuery();
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(query)));
    for (let i = 0; i < 5; i += 1) {
      answers.push(await fetch(query));
    }
    expect(executions()).toBe(1);
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    expect(JSON.parse(answers[0].text)).toMatchObject({ data: { __schema: { queryType: { name: 'Query' } } } });
  });

  it('executes every other operation each time, and caches each introspection document on its own', async () => {
    const { fetch, executions } = server();
    expect((await fetch('{ tick }')).text).toBe('{"data":{"tick":1}}');
    expect((await fetch('{ tick }')).text).toBe('{"data":{"tick":2}}');
    const fields = '{ __type(name: "Query") { fields(includeDeprecated: true) { name } } }';
    expect((await fetch(fields)).text).toBe('{"data":{"__type":{"fields":[{"name":"tick"}]}}}');
    expect((await fetch(fields)).text).toBe('{"data":{"__type":{"fields":[{"name":"tick"}]}}}');
    expect(executions()).toBe(3);
  });

  it('keys on declared variables only, and executes a request whose variables nest too deep to key', async () => {
    const { fetch, executions } = server();
    const deep = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    const first = await fetch('{ __typename }', `{"unused": ${deep}}`);
    expect(first).toEqual({ status: 200, text: '{"data":{"__typename":"Query"}}' });
    // Undeclared variables do not make another cache entry.
    expect((await fetch('{ __typename }', '{"other": 1}')).text).toBe('{"data":{"__typename":"Query"}}');
    expect(executions()).toBe(1);
    const declared = await fetch('query Q($v: String) { __typename }', `{"v": ${deep}}`);
    expect(declared.status).toBe(200);
    expect(JSON.parse(declared.text)).toMatchObject({ errors: [{ message: expect.stringContaining('$v') }] });
  });
});
