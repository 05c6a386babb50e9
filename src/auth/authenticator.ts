/**
 * Token authenticators (docs/security.md#validation-and-the-401-answer): one per configured `auth.authenticators`
 * entry, and the `TokenAuthenticator` that routes a token to the one whose issuer matches its `iss`.
 */
import { readFile } from 'node:fs/promises';
import type { AuthConfig, AuthenticatorConfig } from '../config/service';
import { defaultRealm } from './capabilities';
import { AuthFailure, tokenFailure } from './errors';
import { decodeJwt, isSupportedAlgorithm, verifySignature, type DecodedJwt, type JsonObject } from './jwt';
import {
  JwksKeySource,
  readPublicKeyFile,
  StaticKeySource,
  type AuthLogger,
  type JsonFetcher,
  type KeySource,
} from './key-sources';
import {
  bearerFromConnectionParams,
  bearerFromHeader,
  headerFailure,
  type AuthenticatorInfo,
  type BearerToken,
  type Principal,
} from './principal';

/** Verifies tokens of one issuer. */
export class Authenticator {
  readonly info: AuthenticatorInfo;
  private readonly audience: string;

  constructor(
    readonly config: AuthenticatorConfig,
    private readonly keys: KeySource,
  ) {
    this.info = {
      name: config.name,
      realm: config.realm ?? config.name,
      uidClaim: config.uidClaim,
      allowAuthzOverride: config.allowAuthzOverride,
    };
    this.audience = config.audience ?? config.clientId;
  }

  get issuer(): string {
    return this.config.issuer;
  }

  /**
   * Verify a decoded token at time `now`.
   * @throws AuthFailure naming this authenticator's realm.
   */
  async verify(decoded: DecodedJwt, now: Date): Promise<Principal> {
    try {
      return await this.check(decoded, now.getTime() / 1000);
    } catch (err) {
      throw err instanceof AuthFailure ? err.inRealm(this.info.realm) : err;
    }
  }

  private async check(decoded: DecodedJwt, now: number): Promise<Principal> {
    const { header, payload } = decoded;
    const alg = header.alg;
    if (!isSupportedAlgorithm(alg)) {
      throw tokenFailure('AuthTokenUnauthorizedException', 'The specified alg value is not allowed');
    }
    const resolved = await this.keys.resolve(header);
    if (!resolved.algorithms.includes(alg)) {
      throw tokenFailure('AuthTokenUnauthorizedException', 'The specified alg value is not allowed');
    }
    if (!(await verifySignature(decoded, alg, resolved.key))) {
      throw tokenFailure('AuthTokenInvalidSignatureException');
    }
    const skew = this.config.clockSkew;
    const exp = numericClaim(payload, 'exp', 'Expiration Time');
    const nbf = numericClaim(payload, 'nbf', 'Not Before');
    const iat = numericClaim(payload, 'iat', 'Issued At');
    // The standard checks first, as the reference's JWT library does them before its own.
    if (exp !== undefined && exp + skew < now) {
      throw tokenFailure('TokenExpiredError');
    }
    if (nbf !== undefined && nbf - skew > now) {
      throw tokenFailure('AuthTokenUnauthorizedException', 'The token is not yet valid (nbf)');
    }
    if (payload.iss !== undefined && payload.iss !== this.issuer) {
      throw tokenFailure('IssuerUnknownError');
    }
    if (payload.aud !== undefined && !audienceMatches(payload.aud, this.audience)) {
      throw tokenFailure('IncorrectAudienceError');
    }
    if (['aud', 'iss', 'exp', 'sub'].some((claim) => payload[claim] === undefined)) {
      throw tokenFailure('MissingClaimError');
    }
    const maxAge = this.config.maxTokenAge;
    if (maxAge !== undefined && iat === undefined) {
      throw tokenFailure('MissingClaimError', 'Missing "iat" claim');
    }
    const uid = payload[this.info.uidClaim];
    if (typeof uid !== 'string' && typeof uid !== 'number') {
      throw tokenFailure('MissingUIDClaimError');
    }
    if (iat !== undefined && iat - skew > now) {
      throw tokenFailure('AuthTokenUnauthorizedException', '"iat" claim set in the future');
    }
    if (maxAge !== undefined && iat !== undefined && now - iat > maxAge + skew) {
      throw tokenFailure('TokenExpiredError', 'Token was issued too long ago');
    }
    this.checkAdminOverrideClaim(payload);
    return { subject: String(uid), claims: payload, authenticator: this.info };
  }

  private checkAdminOverrideClaim(payload: JsonObject): void {
    const zuul = payload.zuul;
    if (typeof zuul !== 'object' || zuul === null || !('admin' in zuul)) {
      return;
    }
    const admin: unknown = (zuul as { admin?: unknown }).admin;
    if (!Array.isArray(admin) || admin.some((tenant) => typeof tenant !== 'string')) {
      throw tokenFailure('IncorrectZuulAdminClaimError');
    }
    if (admin.length > 0 && !this.info.allowAuthzOverride) {
      throw tokenFailure('UnauthorizedZuulAdminClaimError');
    }
  }
}

function numericClaim(payload: JsonObject, claim: string, label: string): number | undefined {
  const value = payload[claim];
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw tokenFailure('AuthTokenUnauthorizedException', `${label} claim (${claim}) must be a number`);
  }
  return value;
}

function audienceMatches(aud: unknown, expected: string): boolean {
  return Array.isArray(aud) ? aud.includes(expected) : aud === expected;
}

/** Either a verified caller or the 401 to answer with. */
export type AuthOutcome = { ok: true; principal: Principal } | { ok: false; failure: AuthFailure };

export interface TokenAuthenticatorOptions {
  now?: () => Date;
  fetcher?: JsonFetcher;
  logger?: AuthLogger;
}

/** All configured authenticators; routes each token by its `iss` claim. */
export class TokenAuthenticator {
  private readonly now: () => Date;

  constructor(
    readonly authenticators: readonly Authenticator[],
    options: { now?: () => Date } = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /** False when no authenticator is configured (auth-only routes are then not served). */
  get enabled(): boolean {
    return this.authenticators.length > 0;
  }

  /**
   * The realm offered to clients: the authenticator marked `default`, else the first one
   * (docs/rest.md#info); null when none is configured.
   */
  get defaultRealm(): string | null {
    return defaultRealm({ authenticators: this.authenticators.map((a) => a.config) });
  }

  /** Verify a raw JWT. */
  async verifyToken(token: string): Promise<AuthOutcome> {
    try {
      const decoded = decodeJwt(token);
      const authenticator = this.authenticators.find((a) => a.issuer === decoded.payload.iss);
      if (authenticator === undefined) {
        return { ok: false, failure: new AuthFailure('IssuerUnknownError', this.defaultRealm) };
      }
      return { ok: true, principal: await authenticator.verify(decoded, this.now()) };
    } catch (err) {
      if (err instanceof AuthFailure) {
        return { ok: false, failure: err.realm === null ? err.inRealm(this.defaultRealm) : err };
      }
      throw err;
    }
  }

  /** Authenticate a request from its bearer token (see `principal.ts` for extraction). */
  async authenticate(bearer: BearerToken): Promise<AuthOutcome> {
    if (bearer.kind !== 'token') {
      return { ok: false, failure: headerFailure(bearer, this.defaultRealm) };
    }
    return this.verifyToken(bearer.token);
  }

  /** Authenticate an HTTP request from its `Authorization` header value. */
  authenticateHeader(header: string | string[] | null | undefined): Promise<AuthOutcome> {
    return this.authenticate(bearerFromHeader(header));
  }

  /** Authenticate a graphql-ws connection from its `connectionParams`. */
  authenticateConnectionParams(params: Readonly<Record<string, unknown>> | null | undefined): Promise<AuthOutcome> {
    return this.authenticate(bearerFromConnectionParams(params));
  }
}

/**
 * Build the authenticators of the service configuration, reading secret and key files now so
 * a bad file fails the start rather than the first request.
 */
export async function createTokenAuthenticator(
  auth: AuthConfig,
  options: TokenAuthenticatorOptions = {},
): Promise<TokenAuthenticator> {
  const built: Authenticator[] = [];
  for (const config of auth.authenticators) {
    built.push(new Authenticator(config, await keySourceFor(config, options)));
  }
  return new TokenAuthenticator(built, { now: options.now });
}

async function keySourceFor(config: AuthenticatorConfig, options: TokenAuthenticatorOptions): Promise<KeySource> {
  const jwks = (
    location: ConstructorParameters<typeof JwksKeySource>[0]['location'],
    cacheTtl: number,
    algorithms?: ['RS256'] | ['ES256'],
  ) =>
    new JwksKeySource({
      location,
      cacheTtl,
      allowedAlgorithms: algorithms,
      fetcher: options.fetcher,
      now: options.now,
      logger: options.logger,
    });
  switch (config.driver) {
    case 'HS256': {
      const secret =
        config.secret !== undefined ? Buffer.from(config.secret, 'utf8') : await readSecretFile(config.secretFile);
      return new StaticKeySource({ key: { kind: 'secret', secret }, algorithms: ['HS256'] });
    }
    case 'RS256':
    case 'ES256':
      if (config.jwksFile !== undefined) {
        return jwks({ kind: 'file', path: config.jwksFile }, 600, [config.driver]);
      }
      return new StaticKeySource({
        key: { kind: 'public', key: await readPublicKeyFile(requirePath(config.publicKeyFile), config.driver) },
        algorithms: [config.driver],
      });
    case 'OpenIDConnect': {
      const location =
        config.jwksFile !== undefined
          ? ({ kind: 'file', path: config.jwksFile } as const)
          : config.keysUrl !== undefined
            ? ({ kind: 'url', url: config.keysUrl } as const)
            : ({ kind: 'discovery', issuer: config.issuer } as const);
      return jwks(location, config.keysCacheTtl);
    }
  }
}

async function readSecretFile(file: string | undefined): Promise<Buffer> {
  const text = await readFile(requirePath(file), 'utf8');
  return Buffer.from(text.trim(), 'utf8');
}

function requirePath(file: string | undefined): string {
  if (file === undefined) {
    // The configuration schema guarantees one of the alternatives is present.
    throw new Error('authenticator key file missing from the configuration');
  }
  return file;
}
