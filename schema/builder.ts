/** The Pothos schema builder: plugins, scalars and root types. Domain modules add to it. */
import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import ErrorsPlugin from '@pothos/plugin-errors';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import ValidationPlugin from '@pothos/plugin-validation';
import SimpleObjectsPlugin from '@pothos/plugin-simple-objects';
import type { GraphQLContext } from './context';

export interface SchemaTypes {
  Context: GraphQLContext;
  AuthScopes: {
    /** Anyone may read; access rules of restricted tenants are applied by the Security issue. */
    public: boolean;
  };
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: true;
}

export const builder = new SchemaBuilder<SchemaTypes>({
  plugins: [RelayPlugin, ScopeAuthPlugin, ErrorsPlugin, DataloaderPlugin, ValidationPlugin, SimpleObjectsPlugin],
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodesOnConnection: true,
  },
  scopeAuth: {
    authorizeOnSubscribe: true,
    authScopes: () => ({ public: true }),
  },
  errors: {
    defaultTypes: [],
  },
});

builder.queryType({ description: 'Read entry points of Sluice.' });
builder.mutationType({ description: 'Control operations (tenant admin).' });
