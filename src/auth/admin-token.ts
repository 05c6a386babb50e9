/**
 * Minting admin tokens like the reference's `create-auth-token`: HS256, signed with an
 * authenticator's shared secret, carrying `zuul: {admin: [tenants]}` (honoured only by
 * authenticators with `allowAuthzOverride`).
 */
import { readFile } from 'node:fs/promises';
import type { AuthConfig, AuthenticatorConfig } from '../config/service';
import { signHs256 } from './jwt';

export interface AdminTokenRequest {
  /** Tenants the token administers (`*` for the root). */
  tenants: string[];
  /** The user the token is for (`sub`, and the uid claim when that differs). */
  subject: string;
  /** Lifetime in seconds. */
  ttl: number;
  /** Authenticator name; optional when exactly one HS256 authenticator allows overrides. */
  authenticator?: string;
  now: Date;
}

/** A request the configuration cannot satisfy (no suitable authenticator). */
export class AdminTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminTokenError';
  }
}

/** Pick the authenticator that signs admin tokens. */
export function tokenAuthenticator(auth: AuthConfig, name?: string): Extract<AuthenticatorConfig, { driver: 'HS256' }> {
  const candidates = auth.authenticators.filter(
    (a): a is Extract<AuthenticatorConfig, { driver: 'HS256' }> =>
      a.driver === 'HS256' && (name === undefined || a.name === name),
  );
  if (name !== undefined) {
    const named = auth.authenticators.find((a) => a.name === name);
    if (named === undefined) {
      throw new AdminTokenError(`no authenticator named "${name}" in auth.authenticators`);
    }
    if (named.driver !== 'HS256') {
      throw new AdminTokenError(
        `authenticator "${name}" uses ${named.driver}; tokens can only be minted for HS256 authenticators`,
      );
    }
  }
  const usable = candidates.filter((a) => a.allowAuthzOverride);
  if (usable.length === 1) {
    return usable[0];
  }
  if (candidates.length > 0 && usable.length === 0) {
    const which = candidates.map((a) => `"${a.name}"`).join(', ');
    throw new AdminTokenError(
      `authenticator ${which} does not accept admin tokens: set "allowAuthzOverride: true" on it`,
    );
  }
  if (usable.length > 1) {
    throw new AdminTokenError(
      `several HS256 authenticators accept admin tokens (${usable.map((a) => a.name).join(', ')}): choose one with --authenticator`,
    );
  }
  throw new AdminTokenError(
    'no HS256 authenticator is configured: add one under auth.authenticators (see docs/security.md)',
  );
}

/** Mint a signed admin token. */
export async function createAdminToken(auth: AuthConfig, request: AdminTokenRequest): Promise<string> {
  const authenticator = tokenAuthenticator(auth, request.authenticator);
  const secret =
    authenticator.secret !== undefined
      ? Buffer.from(authenticator.secret, 'utf8')
      : Buffer.from((await readFile(authenticator.secretFile ?? '', 'utf8')).trim(), 'utf8');
  const iat = Math.floor(request.now.getTime() / 1000);
  const payload: Record<string, unknown> = {
    iat,
    exp: iat + request.ttl,
    iss: authenticator.issuer,
    aud: authenticator.audience ?? authenticator.clientId,
    sub: request.subject,
    zuul: { admin: request.tenants },
  };
  if (authenticator.uidClaim !== 'sub') {
    payload[authenticator.uidClaim] = request.subject;
  }
  return signHs256(payload, secret);
}
