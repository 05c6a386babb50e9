/**
 * Types of the declarative REST route table. A route is one path pattern; each of its endpoints
 * (one per method) declares everything the generic handler, the OpenAPI generator and the
 * contract tests need: auth requirement, query parameters, body, GraphQL operations and the
 * response of each shape. Handlers only turn parsed input into GraphQL variables and GraphQL
 * data into the wire shape.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { JsonSchema } from './json-schema';
import type { ParsedQuery } from './query-params';
import type { RestShape } from './shape';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call an endpoint (docs/rest.md#who-may-call-an-endpoint): `none` never checks (info), `public` is readable
 * unless the tenant is read-protected, `token` needs a valid token, `admin` needs tenant admin.
 */
export type AuthRequirement = 'none' | 'public' | 'token' | 'admin';

/** One query parameter. Every value arrives as a string; `type` says how it is parsed. */
export interface QueryParamSpec {
  /**
   * `string`: kept as text; `integer`: a non-negative integer; `flag`: 1/0/true/false;
   * `true-or-other`: `true` (any case) is true, any other value false (the reference's `final`).
   */
  type: 'string' | 'integer' | 'flag' | 'true-or-other';
  description: string;
  /** The parameter may be given several times (values are OR'ed). */
  repeated?: boolean;
  /** Value used when the parameter is absent (integers only). */
  default?: number;
  /** Larger values are clamped to this (integers only). */
  maximum?: number;
}

export type QuerySpec = Record<string, QueryParamSpec>;

/** A JSON request body: its schema (documentation and required keys) and whether it may be absent. */
export interface BodySpec {
  schema: JsonSchema;
  /** When false an absent or empty body is accepted as `{}`. */
  required: boolean;
  /** Keys whose strings are free text: tab and line breaks allowed (docs/rest.md#input-rules). */
  freeText?: readonly string[];
}

/** The success response of one shape. */
export interface ResponseSpec {
  status: 200 | 201 | 204;
  /** `application/json` (default), `text/plain` or `image/svg+xml`. */
  contentType?: 'application/json' | 'text/plain' | 'image/svg+xml';
  /** JSON schema of the body (JSON responses) — the contract the tests validate against. */
  schema?: JsonSchema;
  description: string;
}

/** Error statuses an endpoint can answer, with the texts it uses (for the OpenAPI document). */
export type ErrorSpec = Partial<Record<400 | 401 | 403 | 404 | 409 | 415 | 422, string>>;

export interface RestRequest {
  method: HttpMethod;
  /** Path parameters captured by the route pattern. */
  params: Record<string, string>;
  /** Query parameters, validated and parsed against the endpoint's spec for this shape. */
  query: ParsedQuery;
  /** Parsed JSON body (`{}` when the endpoint declares none). */
  body: Record<string, unknown>;
  shape: RestShape;
  headers: Record<string, string | string[] | undefined>;
  /** Runs a GraphQL operation in-process with this request's context (auth, request id). */
  run: BoundOperationRunner;
  /**
   * The JSON of `body()`, built and serialised (secrets masked) once while requests ask for the
   * same `key` (a key names one version of the data and one shape); a recent answer is reused.
   */
  serialized(key: string, body: () => Promise<unknown>): Promise<SerializedJson>;
}

/** A JSON body serialised and masked already: the router writes its text as it is. */
export class SerializedJson {
  constructor(readonly text: string) {}
}

/** Runs an operation and returns its data; GraphQL errors become REST errors (see errors.ts). */
export type BoundOperationRunner = <TResult, TVariables extends Record<string, unknown>>(
  document: TypedDocumentNode<TResult, TVariables>,
  variables: TVariables,
) => Promise<TResult>;

export interface RestResponse {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type RestHandler = (request: RestRequest) => Promise<RestResponse>;

export interface RestEndpoint {
  summary: string;
  auth: AuthRequirement;
  /** Names of the GraphQL operations (rest-compat/operations/*.graphql) the handler runs. */
  operations: string[];
  /** Query parameters per shape; a shape without an entry accepts none. */
  query?: Partial<Record<RestShape, QuerySpec>>;
  body?: BodySpec;
  /** Success response per shape; the shapes listed are the shapes this endpoint exists in. */
  responses: Partial<Record<RestShape, ResponseSpec>>;
  errors: ErrorSpec;
  /** Response headers that are always sent (caching headers of docs/rest.md#caching-headers). */
  headers?: Record<string, string>;
  handler: RestHandler;
}

export interface RestRoute {
  /** Symbolic name (used in logs and the OpenAPI operation ids). */
  name: string;
  /** Pattern below `/api/`: `{name}` matches one segment, `{name:.*}` is greedy. */
  pattern: string;
  endpoints: Partial<Record<HttpMethod, RestEndpoint>>;
}

/** The shapes a route exists in (union over its endpoints). */
export function routeShapes(route: RestRoute): RestShape[] {
  const shapes = new Set<RestShape>();
  for (const endpoint of Object.values(route.endpoints)) {
    for (const shape of Object.keys(endpoint.responses) as RestShape[]) {
      shapes.add(shape);
    }
  }
  return [...shapes];
}
