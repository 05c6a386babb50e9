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
    nodesOnConnection: { description: 'The nodes of this page, in order (shortcut for `edges { node }`).' },
    // Descriptions of the generated connection parts (every schema element is described).
    pageInfoTypeOptions: { description: 'Where a page sits in its list, with cursors to fetch the neighbouring pages.' },
    hasNextPageFieldOptions: { description: 'True when more records follow this page.' },
    hasPreviousPageFieldOptions: { description: 'True when records precede this page.' },
    startCursorFieldOptions: { description: 'Cursor of the first record of the page; null on an empty page.' },
    endCursorFieldOptions: { description: 'Cursor of the last record of the page; null on an empty page.' },
    cursorFieldOptions: { description: 'Opaque cursor of this record, for `after`/`before`.' },
    nodeFieldOptions: { description: 'The record.' },
    edgesFieldOptions: { description: 'The records of this page with their cursors.' },
    pageInfoFieldOptions: { description: 'Position of this page in the list.' },
    firstArgOptions: { description: 'Page size counted from the start (or from `after`).' },
    lastArgOptions: { description: 'Page size counted from the end (or from `before`).' },
    afterArgOptions: { description: 'Return records after this cursor.' },
    beforeArgOptions: { description: 'Return records before this cursor.' },
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
