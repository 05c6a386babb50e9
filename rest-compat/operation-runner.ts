/**
 * Runs GraphQL operations in-process for REST handlers. It goes through yoga's envelop (context
 * factory, plugins, auth in the schema) but skips HTTP encoding; our own documents are parsed
 * once and are validated by the codegen/test pipeline, so per-request validation is skipped.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { ExecutionResult } from 'graphql';
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
    const result = await env.execute({ schema: env.schema, document, variableValues: variables, contextValue });
    return result as ExecutionResult<never>;
  };
}
