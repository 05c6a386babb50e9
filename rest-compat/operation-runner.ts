/**
 * Runs GraphQL operations in-process for REST handlers: the context comes from yoga's context
 * factory (auth in the schema as for any request), but HTTP encoding, parsing and validation are
 * skipped (our own documents are parsed once and validated by the codegen/test pipeline), and
 * the operation runs on graphql-js's executor rather than yoga's: the plugins that hook execution
 * are not needed here (secret masking is done on the response body by rest-compat/router.ts),
 * errors are mapped by the REST layer itself (rest-compat/router.ts), and graphql-js's executor
 * resolves a 50-record page measurably faster (docs/rest.md, Overhead).
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { execute, type ExecutionResult } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';

export type OperationRunner = <TResult, TVariables extends Record<string, unknown>>(
  document: TypedDocumentNode<TResult, TVariables>,
  variables: TVariables,
  serverContext: Record<string, unknown>,
) => Promise<ExecutionResult<TResult>>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- works with any yoga server context
export function createOperationRunner(yoga: YogaServerInstance<any, any>): OperationRunner {
  return async (document, variables, serverContext) => {
    const env = yoga.getEnveloped(serverContext);
    const contextValue = await env.contextFactory();
    const result = await execute({ schema: env.schema, document, variableValues: variables, contextValue });
    return result as ExecutionResult<never>;
  };
}
