/**
 * Typed documents for the REST compatibility layer: every operation in
 * rest-compat/operations/*.graphql becomes a TypedDocumentNode in rest-compat/generated/.
 * CI fails when the generated file is stale (scripts/check-generated.ts).
 */
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: './schema/schema.graphql',
  documents: ['rest-compat/operations/**/*.graphql'],
  generates: {
    './rest-compat/generated/graphql.ts': {
      plugins: ['typescript-operations', 'typed-document-node'],
      config: {
        scalars: { DateTime: 'string', JSON: 'unknown', ID: 'string' },
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false, object: true },
        useTypeImports: true,
        skipTypename: true,
        onlyOperationTypes: true,
      },
    },
  },
  hooks: {},
};

export default config;
