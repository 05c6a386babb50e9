/**
 * Authentication failures with the reference system's error names and texts
 * (docs/security.md#validation-and-the-401-answer), the 401 JSON body and the `WWW-Authenticate` header built from
 * them.
 */

/** Error names of the reference's 401 responses. */
export type AuthErrorName =
  | 'MissingAuthError'
  | 'InvalidAuthFormat'
  | 'AuthTokenUndecodedException'
  | 'AuthTokenInvalidSignatureException'
  | 'IssuerUnknownError'
  | 'MissingClaimError'
  | 'MissingUIDClaimError'
  | 'IncorrectAudienceError'
  | 'TokenExpiredError'
  | 'IncorrectZuulAdminClaimError'
  | 'UnauthorizedZuulAdminClaimError'
  | 'AuthTokenUnauthorizedException';

/** Coarse classification for callers that only care why: no token, a bad token, or an expired one. */
export type AuthFailureKind = 'missing' | 'invalid' | 'expired';

/** The default description of each error (docs/security.md#validation-and-the-401-answer). */
export const DEFAULT_AUTH_DESCRIPTIONS: Readonly<Record<AuthErrorName, string>> = {
  MissingAuthError: 'Missing "Authorization" header',
  InvalidAuthFormat: '"Authorization" header must start with "Bearer"',
  AuthTokenUndecodedException: 'Auth Token could not be decoded',
  AuthTokenInvalidSignatureException: 'Invalid signature',
  IssuerUnknownError: 'Issuer unknown',
  MissingClaimError: 'Token is missing claims',
  MissingUIDClaimError: 'Token is missing id claim',
  IncorrectAudienceError: 'Incorrect audience',
  TokenExpiredError: 'Token has expired',
  IncorrectZuulAdminClaimError: 'The "zuul.admin" claim is expected to be a list of tenants',
  UnauthorizedZuulAdminClaimError: 'Issuer is not allowed to set "zuul.admin" claim',
  AuthTokenUnauthorizedException: 'This action requires authentication',
};

/** Why a request could not be authenticated. Always answered with HTTP 401. */
export class AuthFailure extends Error {
  readonly status = 401;

  constructor(
    readonly errorName: AuthErrorName,
    /** The realm the client should authenticate against; null when none is configured. */
    readonly realm: string | null,
    readonly description: string = DEFAULT_AUTH_DESCRIPTIONS[errorName],
  ) {
    super(description);
    this.name = 'AuthFailure';
  }

  get kind(): AuthFailureKind {
    if (this.errorName === 'MissingAuthError') {
      return 'missing';
    }
    return this.errorName === 'TokenExpiredError' ? 'expired' : 'invalid';
  }

  /** The same failure attributed to another realm (the authenticator that judged the token). */
  inRealm(realm: string | null): AuthFailure {
    return new AuthFailure(this.errorName, realm, this.description);
  }
}

/** A token failure raised below the authenticator level; the authenticator adds its realm. */
export function tokenFailure(errorName: AuthErrorName, description?: string): AuthFailure {
  return new AuthFailure(errorName, null, description);
}

/** The reference's 401 JSON body: `{description, error, realm}`. */
export interface AuthFailureBody {
  description: string;
  error: AuthErrorName;
  realm: string | null;
}

/**
 * The 401 JSON body. For a missing or malformed header the realm is the default realm or JSON
 * null; for token errors the reference stringifies it, so an unknown realm reads "None".
 */
export function authFailureBody(failure: AuthFailure): AuthFailureBody {
  const headerProblem = failure.errorName === 'MissingAuthError' || failure.errorName === 'InvalidAuthFormat';
  return {
    description: failure.description,
    error: failure.errorName,
    realm: headerProblem ? failure.realm : (failure.realm ?? 'None'),
  };
}

/**
 * The `WWW-Authenticate` value of a 401. The reference folds a multi-line value into one line,
 * leaving runs of seven spaces between the parameters (docs/security.md#validation-and-the-401-answer); that layout is
 * kept. Unlike the reference, quotes inside values are backslash-escaped so the value stays a valid
 * quoted-string (descriptions such as `Missing "Authorization" header` contain quotes).
 */
export function wwwAuthenticateHeader(failure: AuthFailure): string {
  const separator = ' '.repeat(7);
  const quote = (value: string): string => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  return [
    `Bearer realm="${quote(failure.realm ?? 'None')}"`,
    `error="${failure.errorName}"`,
    `error_description="${quote(failure.description)}"`,
  ].join(separator);
}
