/** The Pothos schema builder: plugins, scalars and root types. Domain modules add to it. */
import SchemaBuilder from '@pothos/core';
import { GraphQLError } from 'graphql';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import ErrorsPlugin from '@pothos/plugin-errors';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import ValidationPlugin from '@pothos/plugin-validation';
import SimpleObjectsPlugin from '@pothos/plugin-simple-objects';
import InputHygienePlugin from './input-hygiene';
import { denialForFailure, scopeLoaders } from '../../src/auth/scopes';
import type { GraphQLContext } from './context';

export interface SchemaTypes {
  Context: GraphQLContext;
  /** Scopes of docs/security.md#who-may-do-what-rules, evaluated by `scopeLoaders` (src/auth/scopes.ts). */
  AuthScopes: {
    /** Anyone. */
    public: boolean;
    /** A valid token was presented. */
    authenticated: boolean;
    /** Root-level reads (api-root access rules). */
    rootRead: boolean;
    /** Read the named tenant (public unless it has access rules). */
    tenantRead: string;
    /** A valid token with read access to the named tenant (`authorizations`). */
    tenantToken: string;
    /** Administer the named tenant (control mutations). */
    tenantAdmin: string;
  };
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: true;
}

export const builder = new SchemaBuilder<SchemaTypes>({
  // Input hygiene inside the errors plugin, so that its refusals become typed errors, and after
  // scope-auth, so that a caller who may not call a field learns nothing about its arguments.
  plugins: [
    RelayPlugin,
    ScopeAuthPlugin,
    ErrorsPlugin,
    InputHygienePlugin,
    DataloaderPlugin,
    ValidationPlugin,
    SimpleObjectsPlugin,
  ],
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodesOnConnection: { description: 'The records of this page, in order (the nodes of `edges`).' },
    // Descriptions of the relay-generated types, fields and arguments (see docs/graphql.md, IDs).
    nodeTypeOptions: { description: 'An object with a global id that `node(id)` can fetch again.' },
    idFieldOptions: { description: 'Global id: opaque, stable, usable with `node(id)`.' },
    nodeQueryOptions: {
      description: 'The object with this global id; null when it does not exist.',
      args: { id: { description: 'A global id (the `id` field of any Node).' } },
    },
    nodesQueryOptions: {
      description: 'The objects with these global ids, in order; null where one does not exist.',
      args: { ids: { description: 'Global ids (the `id` fields of Nodes).' } },
    },
    pageInfoTypeOptions: { description: 'Where a page sits in its connection.' },
    hasNextPageFieldOptions: { description: 'Whether more records follow this page (towards older records).' },
    hasPreviousPageFieldOptions: { description: 'Whether records precede this page (towards newer records).' },
    startCursorFieldOptions: { description: 'Cursor of the first record of the page; null when the page is empty.' },
    endCursorFieldOptions: { description: 'Cursor of the last record of the page; null when the page is empty.' },
    edgesFieldOptions: { description: 'The records of this page with their cursors.' },
    pageInfoFieldOptions: { description: 'Position of this page in the connection.' },
    cursorFieldOptions: { description: 'Opaque cursor of this record, for `after` / `before`.' },
    nodeFieldOptions: { description: 'The record.' },
    firstArgOptions: { description: 'Page size from the start (default 50, at most 1000).' },
    lastArgOptions: { description: 'Page size from the end (at most 1000).' },
    afterArgOptions: { description: 'Return records after this cursor (`pageInfo.endCursor`).' },
    beforeArgOptions: { description: 'Return records before this cursor (`pageInfo.startCursor`).' },
  },
  scopeAuth: {
    authorizeOnSubscribe: true,
    authScopes: (ctx) => scopeLoaders(ctx.auth),
    // 401 with WWW-Authenticate (no or bad token where one is needed) or 403; yoga maps extensions.http.
    unauthorizedError: (_parent, ctx, _info, result) => {
      const denied = denialForFailure(ctx.auth, result.failure);
      return new GraphQLError(denied.message, { extensions: denied.extensions });
    },
  },
  errors: {
    defaultTypes: [],
  },
});

builder.queryType({ description: 'Read entry points of Sluice.' });
builder.mutationType({ description: 'Control operations (tenant admin).' });
builder.subscriptionType({ description: 'Live feeds over graphql-ws (or SSE): status, queue deltas, builds, events.' });
