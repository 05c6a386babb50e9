/**
 * Typed documents generated from the GraphQL schema:
 * - rest-compat/operations/*.graphql -> rest-compat/generated/ (TypedDocumentNodes the REST layer runs);
 * - web/src/graphql/*.graphql -> web/src/generated/ (typed document strings for the dashboard:
 *   the browser sends the text, so no GraphQL parser ships in the bundle).
 * CI fails when a generated file is stale (.ci/run).
 */
import type { CodegenConfig } from '@graphql-codegen/cli';

const common = {
  scalars: { DateTime: 'string', JSON: 'unknown', ID: 'string' },
  enumsAsTypes: true,
  avoidOptionals: { field: true, inputValue: false, object: true },
  useTypeImports: true,
  onlyOperationTypes: true,
};

const config: CodegenConfig = {
  schema: './schema/schema.graphql',
  generates: {
    './rest-compat/generated/graphql.ts': {
      documents: ['rest-compat/operations/**/*.graphql'],
      plugins: ['typescript-operations', 'typed-document-node'],
      config: { ...common, skipTypename: true },
    },
    './web/src/generated/graphql.ts': {
      documents: ['web/src/graphql/**/*.graphql'],
      plugins: ['typescript-operations', 'typed-document-node'],
      config: { ...common, skipTypename: false, nonOptionalTypename: false, documentMode: 'string' },
    },
  },
  hooks: {},
};

export default config;
