/**
 * Who is calling, and how a bearer token is found in an HTTP `Authorization` header or in
 * graphql-ws `connectionParams`.
 */
import { AuthFailure } from './errors';

/** The authenticator that accepted a token; rules need its uid claim and override flag. */
export interface AuthenticatorInfo {
  name: string;
  realm: string;
  /** Claim holding the user id (rules see it as `zuul_uid`). */
  uidClaim: string;
  /** Whether this authenticator's tokens may carry a `zuul.admin` tenant list. */
  allowAuthzOverride: boolean;
}

/** An authenticated caller. */
export interface Principal {
  /** The user id: the value of the authenticator's uid claim. */
  subject: string;
  /** Every claim of the verified token. */
  claims: Record<string, unknown>;
  authenticator: AuthenticatorInfo;
}

/** The bearer token of a request, or why there is none. */
export type BearerToken = { kind: 'token'; token: string } | { kind: 'absent' } | { kind: 'malformed' };

/**
 * Read `Authorization: Bearer <token>`. The scheme is matched case-insensitively and the token
 * is whatever follows "Bearer " (docs/security.md#validation-and-the-401-answer).
 */
export function bearerFromHeader(header: string | string[] | null | undefined): BearerToken {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value === null || value === '') {
    return { kind: 'absent' };
  }
  if (!/^bearer /i.test(value)) {
    return { kind: 'malformed' };
  }
  const token = value.slice('bearer '.length).trim();
  return token === '' ? { kind: 'malformed' } : { kind: 'token', token };
}

/**
 * Read the token a graphql-ws client sent in `connectionParams`: `{authorization: "Bearer …"}`
 * (also `Authorization`), or `{token: "…"}` (the form the console stream uses).
 */
export function bearerFromConnectionParams(params: Readonly<Record<string, unknown>> | null | undefined): BearerToken {
  if (params === null || params === undefined) {
    return { kind: 'absent' };
  }
  const authorization = params.authorization ?? params.Authorization;
  if (authorization !== undefined && authorization !== null) {
    return typeof authorization === 'string' ? bearerFromHeader(authorization) : { kind: 'malformed' };
  }
  const token = params.token;
  if (token === undefined || token === null || token === '') {
    return { kind: 'absent' };
  }
  return typeof token === 'string' ? { kind: 'token', token } : { kind: 'malformed' };
}

/** The failure for a request whose header carries no usable token. */
export function headerFailure(
  bearer: Exclude<BearerToken, { kind: 'token' }>,
  defaultRealm: string | null,
): AuthFailure {
  return new AuthFailure(bearer.kind === 'absent' ? 'MissingAuthError' : 'InvalidAuthFormat', defaultRealm);
}
