/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** A point in time, serialized as an ISO-8601 string in UTC (for example 2026-01-31T12:00:00.000Z). */
  DateTime: { input: string; output: string; }
  /** Any JSON value: object, array, string, number, boolean or null. */
  JSON: { input: unknown; output: unknown; }
};

export type RestInfoQueryVariables = Exact<{ [key: string]: never; }>;


export type RestInfoQuery = { info: { version: string, restShape: string, websocketUrl: string | null, capabilities: { jobHistory: boolean, auth: { defaultRealm: string | null, readProtected: boolean, realms: Array<{ name: string, authority: string | null, clientId: string | null, driver: string, scope: string | null }> } } } };


export const RestInfoDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"info"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"restShape"}},{"kind":"Field","name":{"kind":"Name","value":"websocketUrl"}},{"kind":"Field","name":{"kind":"Name","value":"capabilities"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"jobHistory"}},{"kind":"Field","name":{"kind":"Name","value":"auth"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"defaultRealm"}},{"kind":"Field","name":{"kind":"Name","value":"readProtected"}},{"kind":"Field","name":{"kind":"Name","value":"realms"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"authority"}},{"kind":"Field","name":{"kind":"Name","value":"clientId"}},{"kind":"Field","name":{"kind":"Name","value":"driver"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<RestInfoQuery, RestInfoQueryVariables>;