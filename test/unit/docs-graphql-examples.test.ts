/**
 * Every ```graphql example of the GraphQL docs must be a valid operation against the built
 * schema, within the default query limits of a running server, so examples cannot rot.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createYoga } from 'graphql-yoga';
import { schema } from '../../schema';
import { serviceConfigSchema } from '../../src/config/service';
import { hardeningPlugins, parseAndValidateForSubscription } from '../../src/server/graphql-hardening';

const DOCS = ['docs/graphql.md', 'docs/live.md'];
const ROOT = path.join(__dirname, '..', '..');

interface Example {
  where: string;
  source: string;
}

/** The ```graphql blocks of a markdown text, indentation removed, with their first line number. */
function graphqlBlocks(markdown: string, file: string): Example[] {
  const examples: Example[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const opening = /^(\s*)```graphql\s*$/.exec(lines[i] ?? '');
    if (opening === null) {
      continue;
    }
    const indent = opening[1]?.length ?? 0;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j] ?? '')) {
      body.push((lines[j] ?? '').slice(indent));
      j += 1;
    }
    if (j === lines.length) {
      throw new Error(`${file}:${i + 1}: unterminated graphql block`);
    }
    examples.push({ where: `${file}:${i + 2}`, source: body.join('\n') });
    i = j;
  }
  return examples;
}

/** Parse and validate exactly as the server does for a WebSocket operation, with default limits. */
function validator(): (source: string) => string[] {
  const limits = serviceConfigSchema.parse({}).graphql;
  const yoga = createYoga({ schema, plugins: hardeningPlugins(limits), logging: false });
  const env = yoga.getEnveloped({});
  return (source) => {
    const result = parseAndValidateForSubscription(
      { schema: env.schema, parse: env.parse, validate: env.validate },
      source,
      limits,
    );
    return 'errors' in result ? result.errors.map((e) => e.message) : [];
  };
}

describe('GraphQL examples in the docs', () => {
  const validate = validator();
  const examples = DOCS.flatMap((file) => graphqlBlocks(readFileSync(path.join(ROOT, file), 'utf8'), file));

  it('finds the examples of every doc', () => {
    for (const file of DOCS) {
      expect({ file, found: examples.some((e) => e.where.startsWith(`${file}:`)) }).toEqual({ file, found: true });
    }
  });

  it.each(examples.map((e) => [e.where, e.source] as const))('%s is valid against the schema', (_where, source) => {
    expect(validate(source)).toEqual([]);
  });

  it('rejects an unknown field, a missing argument and an over-deep query (the check can fail)', () => {
    expect(validate('{ tenants { name noSuchField } }')).toEqual([expect.stringContaining('noSuchField')]);
    expect(validate('{ tenant { __typename } }')).toEqual([expect.stringContaining('argument "name"')]);
    const deep = `{ tenant(name: "t") { ... on Tenant { build(uuid: "u") { ... on Build { ${'buildset { builds { '.repeat(6)}uuid${' } }'.repeat(6)} } } } } }`;
    expect(validate(deep)).toEqual([expect.stringContaining('depth limit')]);
  });

  it('reads blocks at any indentation and reports their line', () => {
    const markdown = [
      'text',
      '   ```graphql',
      '   { info {',
      '     version } }',
      '   ```',
      '```graphql',
      'query { tenants }',
      '```',
    ].join('\n');
    expect(graphqlBlocks(markdown, 'x.md')).toEqual([
      { where: 'x.md:3', source: '{ info {\n  version } }' },
      { where: 'x.md:7', source: 'query { tenants }' },
    ]);
  });
});
