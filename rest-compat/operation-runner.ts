/**
 * Runs GraphQL operations in-process for REST handlers: the context comes from yoga's context
 * factory (auth in the schema as for any request), but HTTP encoding, parsing and validation are
 * skipped (our own documents are parsed once and validated by the codegen/test pipeline), and
 * the plugins that hook execution are not needed here (secret masking is done on the response
 * body by rest-compat/router.ts; errors are mapped by the REST layer itself).
 *
 * The REST documents are a fixed set, so each is compiled once with graphql-jit into a function
 * that runs the same resolvers without graphql-js's per-field interpretation: on a 50-build page
 * that interpretation was most of the REST overhead over the raw SQL (docs/rest.md, Overhead).
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { YogaServerInstance } from 'graphql-yoga';

export type OperationRunner = <TResult, TVariables extends Record<string, unknown>>(
  document: TypedDocumentNode<TResult, TVariables>,
  variables: TVariables,
  serverContext: Record<string, unknown>,
) => Promise<ExecutionResult<TResult>>;

/** Compiles each document once per schema; an operation that does not compile is a programming error. */
export class CompiledOperations {
  private readonly compiled = new WeakMap<DocumentNode, CompiledQuery>();

  constructor(readonly schema: GraphQLSchema) {}

  get(document: DocumentNode): CompiledQuery {
    let query = this.compiled.get(document);
    if (query === undefined) {
      const result = compileQuery(this.schema, document);
      if (!isCompiledQuery(result)) {
        const reasons = (result.errors ?? []).map((error) => error.message).join('; ');
        throw new Error(`REST operation does not compile: ${reasons}`);
      }
      query = result;
      this.compiled.set(document, query);
    }
    return query;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- works with any yoga server context
export function createOperationRunner(yoga: YogaServerInstance<any, any>): OperationRunner {
  let operations: CompiledOperations | undefined;
  return async (document, variables, serverContext) => {
    const env = yoga.getEnveloped(serverContext);
    if (operations === undefined || operations.schema !== env.schema) {
      operations = new CompiledOperations(env.schema);
    }
    const query = operations.get(document);
    const contextValue = await env.contextFactory();
    const result = await query.query(undefined, contextValue, variables);
    return result as ExecutionResult<never>;
  };
}
