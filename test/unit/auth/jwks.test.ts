import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseServiceConfig } from '../../../src/config/service';
import { createTokenAuthenticator, type AuthOutcome } from '../../../src/auth/authenticator';
import type { JsonObject } from '../../../src/auth/jwt';
import { signJwt } from '../../helpers/sign-jwt';
import { temporaryDirectory } from '../../helpers/temporary-directory';

const ISSUER = 'https://idp.example.com/realms/ci';
let clock = new Date('2026-11-22T12:00:00Z');
const now = () => clock;
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const dir = temporaryDirectory('sluice-jwks-');
const jwk = (key: typeof rsa.publicKey, kid: string, extra: JsonObject = {}) => ({
  ...key.export({ format: 'jwk' }),
  kid,
  use: 'sig',
  ...extra,
});

function claims(): JsonObject {
  return { iss: ISSUER, aud: 'sluice', sub: 'alice', exp: clock.getTime() / 1000 + 300 };
}

function oidc(extra = '') {
  return parseServiceConfig(
    `auth:\n  authenticators:\n    - name: idp\n      driver: OpenIDConnect\n      realm: ci\n      issuer: ${ISSUER}\n      clientId: sluice\n${extra}`,
    path.join(tmpdir(), 'sluice.yaml'),
  ).auth;
}

function description(outcome: AuthOutcome): string {
  return outcome.ok ? 'ok' : outcome.failure.description;
}

describe('OpenIDConnect authenticator', () => {
  it('discovers the JWKS, selects the key by kid, and caches the document', async () => {
    const requests: string[] = [];
    let jwks = { keys: [jwk(rsa.publicKey, 'rsa-1'), jwk(ec.publicKey, 'ec-1')] };
    const fetcher = (url: string) => {
      requests.push(url);
      if (url.endsWith('/.well-known/openid-configuration')) {
        return Promise.resolve({ issuer: ISSUER, jwks_uri: 'https://idp.example.com/certs' });
      }
      return Promise.resolve(jwks);
    };
    const auth = await createTokenAuthenticator(oidc(), { fetcher, now });
    const rsToken = signJwt(claims(), 'RS256', { kind: 'private', key: rsa.privateKey }, { kid: 'rsa-1' });
    const esToken = signJwt(claims(), 'ES256', { kind: 'private', key: ec.privateKey }, { kid: 'ec-1' });
    expect(description(await auth.verifyToken(rsToken))).toBe('ok');
    expect(description(await auth.verifyToken(esToken))).toBe('ok');
    expect(requests).toEqual([`${ISSUER}/.well-known/openid-configuration`, 'https://idp.example.com/certs']);

    // A token signed by the EC key but claiming the RSA kid fails the signature check.
    const mixed = signJwt(
      claims(),
      'RS256',
      { kind: 'private', key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey },
      { kid: 'rsa-1' },
    );
    expect(description(await auth.verifyToken(mixed))).toBe('Invalid signature');

    // Key rotation: an unknown kid refetches, but not more than once per 30 s.
    const rotated = generateKeyPairSync('rsa', { modulusLength: 2048 });
    jwks = { keys: [jwk(rotated.publicKey, 'rsa-2')] };
    const rotatedToken = signJwt(claims(), 'RS256', { kind: 'private', key: rotated.privateKey }, { kid: 'rsa-2' });
    expect(description(await auth.verifyToken(rotatedToken))).toBe('No key found for key ID "rsa-2"');
    clock = new Date(clock.getTime() + 31_000);
    expect(
      description(
        await auth.verifyToken(
          signJwt(claims(), 'RS256', { kind: 'private', key: rotated.privateKey }, { kid: 'rsa-2' }),
        ),
      ),
    ).toBe('ok');
  });

  it('reports the reference texts for JWKS problems', async () => {
    const token = signJwt(claims(), 'RS256', { kind: 'private', key: rsa.privateKey }, { kid: 'rsa-1' });
    const noKid = signJwt(claims(), 'RS256', { kind: 'private', key: rsa.privateKey });
    const failing = await createTokenAuthenticator(oidc(), { fetcher: () => Promise.reject(new Error('down')), now });
    expect(description(await failing.verifyToken(noKid))).toBe('No key ID in token header');
    expect(description(await failing.verifyToken(token))).toBe(
      'There was an error while fetching OpenID configuration, check logs for details',
    );

    const noUri = await createTokenAuthenticator(oidc(), { fetcher: () => Promise.resolve({ issuer: ISSUER }), now });
    expect(description(await noUri.verifyToken(token))).toBe('Invalid OpenID configuration: "jwks_uri" not found');

    const badKeys = await createTokenAuthenticator(oidc('      keysUrl: https://idp.example.com/certs\n'), {
      fetcher: () => Promise.reject(new Error('503')),
      now,
    });
    const outcome = await badKeys.verifyToken(token);
    expect(description(outcome)).toBe(
      'There was an error while fetching keys for Identity Provider, check logs for details',
    );
    expect(!outcome.ok && outcome.failure.errorName).toBe('AuthTokenUnauthorizedException');
    expect(!outcome.ok && outcome.failure.realm).toBe('ci');
  });

  it('reads a JWKS file for RS256 authenticators and ignores keys for other algorithms', async () => {
    writeFileSync(
      path.join(dir, 'keys.json'),
      JSON.stringify({ keys: [jwk(rsa.publicKey, 'a'), jwk(ec.publicKey, 'b')] }),
    );
    const auth = await createTokenAuthenticator(
      parseServiceConfig(
        'auth:\n  authenticators:\n    - name: file\n      driver: RS256\n      issuer: file-issuer\n      clientId: c\n      jwksFile: keys.json\n',
        path.join(dir, 'sluice.yaml'),
      ).auth,
      { now },
    );
    const base = { iss: 'file-issuer', aud: 'c', sub: 's', exp: clock.getTime() / 1000 + 60 };
    expect(
      description(
        await auth.verifyToken(signJwt(base, 'RS256', { kind: 'private', key: rsa.privateKey }, { kid: 'a' })),
      ),
    ).toBe('ok');
    expect(
      description(
        await auth.verifyToken(signJwt(base, 'ES256', { kind: 'private', key: ec.privateKey }, { kid: 'b' })),
      ),
    ).toBe('No key found for key ID "b"');
  });
});

describe('JWKS fetch failures', () => {
  it('does not refetch for every request while the identity provider is failing', async () => {
    let calls = 0;
    let up = false;
    const rsa2 = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const fetcher = () => {
      calls++;
      return up ? Promise.resolve({ keys: [jwk(rsa2.publicKey, 'k')] }) : Promise.reject(new Error('down'));
    };
    const auth = await createTokenAuthenticator(oidc('      keysUrl: https://idp.example.com/certs\n'), {
      fetcher,
      now,
    });
    const token = () => signJwt(claims(), 'RS256', { kind: 'private', key: rsa2.privateKey }, { kid: 'k' });
    await auth.verifyToken(token());
    await auth.verifyToken(token());
    expect(calls).toBe(1);
    up = true;
    clock = new Date(clock.getTime() + 6_000);
    expect(description(await auth.verifyToken(token()))).toBe('ok');
    expect(calls).toBe(2);
  });
});
