/** Types of the declarative REST route table. */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { RestShape } from './shape';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RestRequest {
  method: HttpMethod;
  /** Path parameters captured by the route pattern. */
  params: Record<string, string>;
  query: URLSearchParams;
  shape: RestShape;
  headers: Record<string, string | string[] | undefined>;
  /** Runs a GraphQL operation in-process with this request's context (auth, request id). */
  run: BoundOperationRunner;
}

/** Runs an operation and returns its data; GraphQL errors become REST errors (see errors.ts). */
export type BoundOperationRunner = <TResult, TVariables extends Record<string, unknown>>(
  document: TypedDocumentNode<TResult, TVariables>,
  variables: TVariables,
) => Promise<TResult>;

export interface RestResponse {
  status?: number;
  body: unknown;
  /** Defaults to JSON. */
  contentType?: string;
  headers?: Record<string, string>;
}

export type RestHandler = (request: RestRequest) => Promise<RestResponse>;

export interface RestRoute {
  /** Symbolic name (used in the index and in logs). */
  name: string;
  /** Pattern below `/api/`: `{name}` matches one segment, `{name:.*}` is greedy. */
  pattern: string;
  handlers: Partial<Record<HttpMethod, RestHandler>>;
  /** Shapes this path exists in; paths only in the current shape are always served as current. */
  shapes?: RestShape[];
}
