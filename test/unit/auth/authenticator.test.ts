import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseServiceConfig, type AuthConfig } from '../../../src/config/service';
import { createTokenAuthenticator, type AuthOutcome, type TokenAuthenticator } from '../../../src/auth/authenticator';
import { authFailureBody, wwwAuthenticateHeader } from '../../../src/auth/errors';
import { openPolicies, requestAuthFromConnectionParams, requestAuthFromHeader } from '../../../src/auth/gate';
import type { JsonObject } from '../../../src/auth/jwt';
import { base64UrlEncode, signJwt } from '../../helpers/sign-jwt';
import { temporaryDirectory } from '../../helpers/temporary-directory';

const NOW = new Date('2026-11-22T12:00:00Z');
const nowSeconds = NOW.getTime() / 1000;
const dir = temporaryDirectory('sluice-auth-');

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
writeFileSync(path.join(dir, 'rsa.pem'), rsa.publicKey.export({ type: 'spki', format: 'pem' }));
writeFileSync(path.join(dir, 'ec.pem'), ec.publicKey.export({ type: 'spki', format: 'pem' }));
writeFileSync(path.join(dir, 'hs.secret'), 'FileSecret\n');

function authConfig(yaml: string): AuthConfig {
  return parseServiceConfig(yaml, path.join(dir, 'sluice.yaml')).auth;
}

const CONFIG = authConfig(`
auth:
  authenticators:
    - name: zuul_operator
      driver: HS256
      realm: zuul.example.com
      issuer: zuul_operator
      clientId: zuul.example.com
      secret: NoDanaOnlyZuul
      allowAuthzOverride: true
    - name: strict
      driver: HS256
      realm: strict-realm
      issuer: strict_issuer
      clientId: strict.example.com
      secretFile: hs.secret
      maxTokenAge: 5
      uidClaim: email
    - name: rsa
      driver: RS256
      issuer: rsa_issuer
      clientId: rsa-client
      publicKeyFile: rsa.pem
      default: true
    - name: ec
      driver: ES256
      issuer: ec_issuer
      clientId: ec-client
      publicKeyFile: ec.pem
      clockSkew: 30
`);

function hs(payload: JsonObject, secret = 'NoDanaOnlyZuul'): string {
  return signJwt(payload, 'HS256', { kind: 'secret', secret: Buffer.from(secret) });
}

const valid = (extra: JsonObject = {}): JsonObject => ({
  iss: 'zuul_operator',
  aud: 'zuul.example.com',
  sub: 'testuser',
  exp: nowSeconds + 3600,
  zuul: { admin: ['tenant-one'] },
  ...extra,
});

let auth: TokenAuthenticator;
beforeAll(async () => {
  auth = await createTokenAuthenticator(CONFIG, { now: () => NOW });
});

function failure(outcome: AuthOutcome): { error: string; description: string; realm: string | null } {
  if (outcome.ok) {
    throw new Error('expected a failure');
  }
  return authFailureBody(outcome.failure);
}

describe('HS256 tokens (the reference test-suite fixtures)', () => {
  it('accepts a valid admin token and exposes subject, claims and authenticator', async () => {
    const outcome = await auth.verifyToken(hs(valid()));
    expect(outcome.ok).toBe(true);
    if (outcome.ok) {
      expect(outcome.principal.subject).toBe('testuser');
      expect(outcome.principal.claims.zuul).toEqual({ admin: ['tenant-one'] });
      expect(outcome.principal.authenticator).toEqual({
        name: 'zuul_operator',
        realm: 'zuul.example.com',
        uidClaim: 'sub',
        allowAuthzOverride: true,
      });
    }
  });

  it('rejects a token signed with the wrong key', async () => {
    expect(failure(await auth.verifyToken(hs(valid(), 'OnlyZuulNoDana')))).toEqual({
      error: 'AuthTokenInvalidSignatureException',
      description: 'Invalid signature',
      realm: 'zuul.example.com',
    });
  });

  it('rejects garbage as undecodable, in the default realm', async () => {
    expect(failure(await auth.verifyToken('garbage'))).toEqual({
      error: 'AuthTokenUndecodedException',
      description: 'Auth Token could not be decoded',
      realm: 'rsa',
    });
    expect(failure(await auth.verifyToken('a.b.c')).error).toBe('AuthTokenUndecodedException');
  });

  it('rejects an expired token', async () => {
    expect(failure(await auth.verifyToken(hs(valid({ exp: nowSeconds - 1 }))))).toEqual({
      error: 'TokenExpiredError',
      description: 'Token has expired',
      realm: 'zuul.example.com',
    });
  });

  it('rejects alg "none" even when the payload is otherwise valid', async () => {
    const token = `${base64UrlEncode(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64UrlEncode(JSON.stringify(valid()))}.`;
    const body = failure(await auth.verifyToken(token));
    expect(body.error).toBe('AuthTokenUnauthorizedException');
    expect(body.description).toBe('The specified alg value is not allowed');
  });

  it('rejects an RS256-signed token presented to the HS256 authenticator (algorithm confusion)', async () => {
    const token = signJwt(valid(), 'RS256', { kind: 'private', key: rsa.privateKey });
    expect(failure(await auth.verifyToken(token)).description).toBe('The specified alg value is not allowed');
  });

  it('rejects a wrong audience, an unknown issuer and missing claims', async () => {
    expect(failure(await auth.verifyToken(hs(valid({ aud: 'elsewhere' }))))).toMatchObject({
      error: 'IncorrectAudienceError',
      description: 'Incorrect audience',
    });
    expect(failure(await auth.verifyToken(hs(valid({ iss: 'nobody' }))))).toEqual({
      error: 'IssuerUnknownError',
      description: 'Issuer unknown',
      realm: 'rsa',
    });
    expect(failure(await auth.verifyToken(hs(valid({ sub: undefined }))))).toMatchObject({
      error: 'MissingClaimError',
      description: 'Token is missing claims',
    });
    expect(failure(await auth.verifyToken(hs(valid({ exp: undefined }))))).toMatchObject({
      error: 'MissingClaimError',
    });
  });

  it('accepts an audience list that contains the client id', async () => {
    expect((await auth.verifyToken(hs(valid({ aud: ['other', 'zuul.example.com'] })))).ok).toBe(true);
  });

  it('rejects immature tokens (nbf) and non-numeric time claims', async () => {
    expect(failure(await auth.verifyToken(hs(valid({ nbf: nowSeconds + 60 })))).description).toBe(
      'The token is not yet valid (nbf)',
    );
    expect(failure(await auth.verifyToken(hs(valid({ exp: 'tomorrow' })))).description).toBe(
      'Expiration Time claim (exp) must be a number',
    );
  });

  it('checks the shape of the zuul.admin claim', async () => {
    expect(failure(await auth.verifyToken(hs(valid({ zuul: { admin: '*' } }))))).toMatchObject({
      error: 'IncorrectZuulAdminClaimError',
      description: 'The "zuul.admin" claim is expected to be a list of tenants',
    });
  });
});

describe('authenticator options', () => {
  const strict = (extra: JsonObject): string =>
    hs(
      {
        iss: 'strict_issuer',
        aud: 'strict.example.com',
        sub: 'x',
        email: 'x@example.com',
        exp: nowSeconds + 60,
        ...extra,
      },
      'FileSecret',
    );

  it('reads the HS256 secret from a file and uses the configured uid claim', async () => {
    const outcome = await auth.verifyToken(strict({ iat: nowSeconds - 1 }));
    expect(outcome.ok && outcome.principal.subject).toBe('x@example.com');
  });

  it('enforces max token age (iat required, not in the future, not too old)', async () => {
    expect(failure(await auth.verifyToken(strict({})))).toMatchObject({
      error: 'MissingClaimError',
      description: 'Missing "iat" claim',
    });
    expect(failure(await auth.verifyToken(strict({ iat: nowSeconds + 10 })))).toMatchObject({
      error: 'AuthTokenUnauthorizedException',
      description: '"iat" claim set in the future',
    });
    expect(failure(await auth.verifyToken(strict({ iat: nowSeconds - 6 })))).toMatchObject({
      error: 'TokenExpiredError',
      description: 'Token was issued too long ago',
    });
  });

  it('requires the uid claim', async () => {
    expect(failure(await auth.verifyToken(strict({ iat: nowSeconds, email: undefined })))).toMatchObject({
      error: 'MissingUIDClaimError',
      description: 'Token is missing id claim',
      realm: 'strict-realm',
    });
  });

  it('refuses a zuul.admin list from an authenticator without override', async () => {
    expect(failure(await auth.verifyToken(strict({ iat: nowSeconds, zuul: { admin: ['t'] } })))).toMatchObject({
      error: 'UnauthorizedZuulAdminClaimError',
      description: 'Issuer is not allowed to set "zuul.admin" claim',
    });
    expect((await auth.verifyToken(strict({ iat: nowSeconds, zuul: { admin: [] } }))).ok).toBe(true);
  });

  it('verifies RS256 with a PEM public key and rejects a different key', async () => {
    const payload = { iss: 'rsa_issuer', aud: 'rsa-client', sub: 'r', exp: nowSeconds + 60 };
    expect((await auth.verifyToken(signJwt(payload, 'RS256', { kind: 'private', key: rsa.privateKey }))).ok).toBe(true);
    const other: KeyObject = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    expect(failure(await auth.verifyToken(signJwt(payload, 'RS256', { kind: 'private', key: other }))).error).toBe(
      'AuthTokenInvalidSignatureException',
    );
    expect(
      failure(await auth.verifyToken(signJwt(payload, 'HS256', { kind: 'secret', secret: Buffer.from('x') })))
        .description,
    ).toBe('The specified alg value is not allowed');
  });

  it('verifies ES256 and applies the clock skew to exp, nbf and iat', async () => {
    const sign = (extra: JsonObject) =>
      signJwt({ iss: 'ec_issuer', aud: 'ec-client', sub: 'e', exp: nowSeconds + 60, ...extra }, 'ES256', {
        kind: 'private',
        key: ec.privateKey,
      });
    expect((await auth.verifyToken(sign({}))).ok).toBe(true);
    expect(
      (await auth.verifyToken(sign({ exp: nowSeconds - 20, nbf: nowSeconds + 20, iat: nowSeconds + 20 }))).ok,
    ).toBe(true);
    expect(failure(await auth.verifyToken(sign({ exp: nowSeconds - 31 }))).error).toBe('TokenExpiredError');
  });
});

describe('bearer headers and the 401 response', () => {
  it('reports a missing header and a wrong scheme with the default realm', async () => {
    expect(failure(await auth.authenticateHeader(undefined))).toEqual({
      error: 'MissingAuthError',
      description: 'Missing "Authorization" header',
      realm: 'rsa',
    });
    expect(failure(await auth.authenticateHeader('Basic abc'))).toEqual({
      error: 'InvalidAuthFormat',
      description: '"Authorization" header must start with "Bearer"',
      realm: 'rsa',
    });
  });

  it('matches the scheme case-insensitively and reads connectionParams', async () => {
    const token = hs(valid());
    expect((await auth.authenticateHeader(`bearer ${token}`)).ok).toBe(true);
    expect((await auth.authenticateConnectionParams({ authorization: `Bearer ${token}` })).ok).toBe(true);
    expect((await auth.authenticateConnectionParams({ token })).ok).toBe(true);
    expect(failure(await auth.authenticateConnectionParams({})).error).toBe('MissingAuthError');
    expect(failure(await auth.authenticateConnectionParams({ token: 42 })).error).toBe('InvalidAuthFormat');
  });

  it('builds the WWW-Authenticate value with the reference layout', async () => {
    const outcome = await auth.verifyToken(hs(valid({ exp: nowSeconds - 1 })));
    if (outcome.ok) {
      throw new Error('expected a failure');
    }
    expect(wwwAuthenticateHeader(outcome.failure)).toBe(
      'Bearer realm="zuul.example.com"       error="TokenExpiredError"       error_description="Token has expired"',
    );
    expect(outcome.failure.kind).toBe('expired');
  });

  it('stringifies an unknown realm as "None" in token errors but keeps null for header errors', async () => {
    const none = await createTokenAuthenticator({ authenticators: [] });
    expect(none.defaultRealm).toBeNull();
    expect(failure(await none.authenticateHeader(undefined)).realm).toBeNull();
    expect(failure(await none.authenticateHeader(`Bearer ${hs(valid())}`))).toEqual({
      error: 'IssuerUnknownError',
      description: 'Issuer unknown',
      realm: 'None',
    });
  });
});

describe('RequestAuth from a request', () => {
  const policies = openPolicies(() => ['tenant-one', 'tenant-two']);

  it('gives an admin token admin on its tenant only, over headers and connectionParams', async () => {
    const token = hs(valid());
    const http = await requestAuthFromHeader(auth, `Bearer ${token}`, policies);
    expect(http.check('admin', 'tenant-one').allowed).toBe(true);
    expect(http.check('admin', 'tenant-two')).toEqual({ allowed: false, status: 403 });
    const ws = await requestAuthFromConnectionParams(auth, { token }, policies);
    expect(ws.principal?.subject).toBe('testuser');
    expect(ws.check('admin', 'tenant-one').allowed).toBe(true);
  });

  it('treats a missing or bad token as anonymous for reads and 401 for control', async () => {
    const anonymous = await requestAuthFromHeader(auth, undefined, policies);
    expect(anonymous.check('public', 'tenant-one').allowed).toBe(true);
    expect(anonymous.check('admin', 'tenant-one')).toMatchObject({
      allowed: false,
      status: 401,
      failure: { errorName: 'MissingAuthError' },
    });
    const forged = await requestAuthFromHeader(auth, `Bearer ${hs(valid(), 'OnlyZuulNoDana')}`, policies);
    expect(forged.principal).toBeNull();
    expect(forged.check('admin', 'tenant-one')).toMatchObject({
      allowed: false,
      status: 401,
      failure: { errorName: 'AuthTokenInvalidSignatureException' },
    });
  });
});
