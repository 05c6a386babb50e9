/**
 * Where an authenticator gets the key that checks a token's signature: a shared secret, a PEM
 * public key, or a JWKS (file, URL, or discovered from the issuer's OpenID configuration) with
 * the key chosen by the token's `kid`.
 */
import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { importJWK, type JWK } from 'jose';
import { tokenFailure } from './errors';
import { isSupportedAlgorithm, type JsonObject, type JwtAlgorithm, type VerificationKey } from './jwt';

/** A key plus the algorithms it may be used with. */
export interface ResolvedKey {
  key: VerificationKey;
  algorithms: readonly JwtAlgorithm[];
}

export interface KeySource {
  /**
   * The key for a token with this header.
   * @throws AuthFailure `AuthTokenUnauthorizedException` with the JWKS problem as description.
   */
  resolve(header: JsonObject): Promise<ResolvedKey>;
}

/** Minimal logger (a pino logger fits). */
export interface AuthLogger {
  warn(details: object, message: string): void;
}

/** Fetches and parses a JSON document; injectable so tests need no network. */
export type JsonFetcher = (url: string) => Promise<unknown>;

/** Texts of the reference's JWKS errors (docs/security.md#validation-and-the-401-answer). */
export const JWKS_MESSAGES = {
  noKid: 'No key ID in token header',
  fetchKeys: 'There was an error while fetching keys for Identity Provider, check logs for details',
  fetchConfiguration: 'There was an error while fetching OpenID configuration, check logs for details',
  noJwksUri: 'Invalid OpenID configuration: "jwks_uri" not found',
} as const;

/** A fixed key: an HS256 secret or a PEM public key file. */
export class StaticKeySource implements KeySource {
  constructor(private readonly resolved: ResolvedKey) {}

  resolve(): Promise<ResolvedKey> {
    return Promise.resolve(this.resolved);
  }
}

/** Read a PEM public key (SPKI, or PKCS#1 for RSA) and check it suits the algorithm. */
export async function readPublicKeyFile(file: string, algorithm: 'RS256' | 'ES256'): Promise<KeyObject> {
  const key = createPublicKey(await readFile(file, 'utf8'));
  const expected = algorithm === 'RS256' ? 'rsa' : 'ec';
  if (key.asymmetricKeyType !== expected) {
    throw new Error(
      `${file}: an ${algorithm} authenticator needs an ${expected.toUpperCase()} public key, found ${key.asymmetricKeyType ?? 'unknown'}`,
    );
  }
  return key;
}

/** Default fetcher: global fetch with a timeout; non-2xx answers are errors. */
export const fetchJson: JsonFetcher = async (url) => {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000), headers: { accept: 'application/json' } });
  if (!response.ok) {
    throw new Error(`GET ${url} answered ${response.status}`);
  }
  return (await response.json()) as unknown;
};

export interface JwksSourceOptions {
  /** Where the JWKS comes from. */
  location: { kind: 'file'; path: string } | { kind: 'url'; url: string } | { kind: 'discovery'; issuer: string };
  /** Seconds a fetched document is reused. */
  cacheTtl: number;
  /** Algorithms accepted when a JWK does not name one; the first is the default for RSA keys. */
  allowedAlgorithms?: readonly JwtAlgorithm[];
  fetcher?: JsonFetcher;
  now?: () => Date;
  logger?: AuthLogger;
}

/** Never refetch more often than this when a token names an unknown `kid`. */
const MIN_REFRESH_MS = 30_000;
/** After a failed fetch, answer with the same failure for this long instead of fetching again. */
const FAILURE_BACKOFF_MS = 5_000;

interface CachedKeys {
  keys: Map<string, ResolvedKey>;
  fetchedAt: number;
}

/** Keys from a JWKS, chosen by `kid`, cached for `cacheTtl` seconds. */
export class JwksKeySource implements KeySource {
  private cache: CachedKeys | undefined;
  private inFlight: Promise<CachedKeys> | undefined;
  private lastFailure: { at: number; error: unknown } | undefined;
  private readonly fetcher: JsonFetcher;
  private readonly now: () => Date;

  constructor(private readonly options: JwksSourceOptions) {
    this.fetcher = options.fetcher ?? fetchJson;
    this.now = options.now ?? (() => new Date());
  }

  async resolve(header: JsonObject): Promise<ResolvedKey> {
    const kid = header.kid;
    if (typeof kid !== 'string' || kid === '') {
      throw tokenFailure('AuthTokenUnauthorizedException', JWKS_MESSAGES.noKid);
    }
    let cached = await this.current(false);
    let found = cached.keys.get(kid);
    if (found === undefined && this.now().getTime() - cached.fetchedAt >= MIN_REFRESH_MS) {
      cached = await this.current(true);
      found = cached.keys.get(kid);
    }
    if (found === undefined) {
      throw tokenFailure('AuthTokenUnauthorizedException', `No key found for key ID "${kid}"`);
    }
    return found;
  }

  private async current(forceRefresh: boolean): Promise<CachedKeys> {
    const fresh =
      this.cache !== undefined && this.now().getTime() - this.cache.fetchedAt < this.options.cacheTtl * 1000;
    if (this.cache !== undefined && fresh && !forceRefresh) {
      return this.cache;
    }
    const now = this.now().getTime();
    if (this.lastFailure !== undefined && now - this.lastFailure.at < FAILURE_BACKOFF_MS) {
      // A broken identity provider must not be hammered once per incoming request.
      throw this.lastFailure.error;
    }
    // One fetch at a time; concurrent requests share it.
    this.inFlight ??= this.load().finally(() => {
      this.inFlight = undefined;
    });
    try {
      this.cache = await this.inFlight;
      this.lastFailure = undefined;
    } catch (err) {
      this.lastFailure = { at: now, error: err };
      throw err;
    }
    return this.cache;
  }

  private async load(): Promise<CachedKeys> {
    const document = await this.readDocument();
    return { keys: await this.parseKeys(document), fetchedAt: this.now().getTime() };
  }

  private async readDocument(): Promise<unknown> {
    const { location } = this.options;
    if (location.kind === 'file') {
      try {
        return JSON.parse(await readFile(location.path, 'utf8')) as unknown;
      } catch (err) {
        this.options.logger?.warn({ err, file: location.path }, 'cannot read the JWKS file');
        throw tokenFailure('AuthTokenUnauthorizedException', JWKS_MESSAGES.fetchKeys);
      }
    }
    const url = location.kind === 'url' ? location.url : await this.discoverJwksUri(location.issuer);
    try {
      return await this.fetcher(url);
    } catch (err) {
      this.options.logger?.warn({ err, url }, 'cannot fetch the JWKS');
      throw tokenFailure('AuthTokenUnauthorizedException', JWKS_MESSAGES.fetchKeys);
    }
  }

  private async discoverJwksUri(issuer: string): Promise<string> {
    const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    let document: unknown;
    try {
      document = await this.fetcher(url);
    } catch (err) {
      this.options.logger?.warn({ err, url }, 'cannot fetch the OpenID configuration');
      throw tokenFailure('AuthTokenUnauthorizedException', JWKS_MESSAGES.fetchConfiguration);
    }
    const jwksUri = (document as { jwks_uri?: unknown } | null)?.jwks_uri;
    if (typeof jwksUri !== 'string' || jwksUri === '') {
      throw tokenFailure('AuthTokenUnauthorizedException', JWKS_MESSAGES.noJwksUri);
    }
    return jwksUri;
  }

  private async parseKeys(document: unknown): Promise<Map<string, ResolvedKey>> {
    const keys = new Map<string, ResolvedKey>();
    const list = (document as { keys?: unknown } | null)?.keys;
    if (!Array.isArray(list)) {
      this.options.logger?.warn({}, 'the JWKS document has no "keys" list');
      throw tokenFailure('AuthTokenUnauthorizedException', JWKS_MESSAGES.fetchKeys);
    }
    for (const entry of list as unknown[]) {
      const parsed = await this.parseKey(entry);
      if (parsed !== undefined) {
        keys.set(parsed.kid, parsed.resolved);
      }
    }
    return keys;
  }

  private async parseKey(entry: unknown): Promise<{ kid: string; resolved: ResolvedKey } | undefined> {
    if (typeof entry !== 'object' || entry === null) {
      return undefined;
    }
    const jwk = entry as JsonWebKey & { kid?: unknown; alg?: unknown; use?: unknown };
    if (typeof jwk.kid !== 'string' || (jwk.use !== undefined && jwk.use !== 'sig')) {
      return undefined;
    }
    const algorithm = algorithmOf(jwk);
    const allowed = this.options.allowedAlgorithms;
    if (algorithm === undefined || (allowed !== undefined && !allowed.includes(algorithm))) {
      return undefined;
    }
    try {
      // jose checks the key's type and curve against the algorithm; a private JWK gives its public half.
      const imported = await importJWK(jwk as JWK, algorithm);
      if (imported instanceof Uint8Array) {
        return undefined;
      }
      const key = imported.type === 'private' ? createPublicKey(imported as KeyObject) : (imported as KeyObject);
      return { kid: jwk.kid, resolved: { key: { kind: 'public', key }, algorithms: [algorithm] } };
    } catch (err) {
      this.options.logger?.warn({ err, kid: jwk.kid }, 'skipping an unusable JWK');
      return undefined;
    }
  }
}

/** The algorithm a JWK is for: its `alg`, else RS256 for RSA and ES256/ES384 by curve. */
function algorithmOf(jwk: JsonWebKey & { alg?: unknown }): JwtAlgorithm | undefined {
  if (jwk.alg !== undefined) {
    return isSupportedAlgorithm(jwk.alg) && jwk.alg !== 'HS256' ? jwk.alg : undefined;
  }
  if (jwk.kty === 'RSA') {
    return 'RS256';
  }
  if (jwk.kty === 'EC') {
    return jwk.crv === 'P-256' ? 'ES256' : jwk.crv === 'P-384' ? 'ES384' : undefined;
  }
  return undefined;
}
