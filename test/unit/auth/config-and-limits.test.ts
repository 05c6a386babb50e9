import path from 'node:path';
import { parseServiceConfig, ServiceConfigError } from '../../../src/config/service';
import { authRealms, defaultRealm, realmsWire } from '../../../src/auth/capabilities';
import { controlRateLimitKey, TokenBucketLimiter } from '../../../src/auth/rate-limit';
import type { Principal } from '../../../src/auth/principal';

const FILE = '/etc/sluice/sluice.yaml';

function problems(yaml: string): string[] {
  try {
    parseServiceConfig(yaml, FILE);
  } catch (err) {
    if (err instanceof ServiceConfigError) {
      return err.problems;
    }
    throw err;
  }
  throw new Error('expected the configuration to be rejected');
}

describe('auth configuration section', () => {
  it('has defaults: no authenticators, GraphQL limits on, introspection on', () => {
    const config = parseServiceConfig('{}', FILE);
    expect(config.auth).toEqual({ authenticators: [] });
    expect(config.graphql).toEqual({
      introspection: true,
      maxDepth: 12,
      maxCost: 50_000,
      maxAliases: 15,
      maxDirectives: 50,
      maxTokens: 2000,
      maxNesting: 64,
      maxBodyBytes: 1048576,
      csrfPrevention: true,
      controlRateLimit: { burst: 30, perMinute: 60 },
      maxSocketBufferBytes: 4194304,
      introspectionConcurrency: 1,
    });
  });

  it('parses every driver with defaults and resolves file paths against the config file', () => {
    const config = parseServiceConfig(
      `auth:
  keyEncryptionKeyFile: secrets/kek
  authenticators:
    - { name: hs, driver: HS256, issuer: i1, clientId: c1, secretFile: hs.secret }
    - { name: rs, driver: RS256, issuer: i2, clientId: c2, publicKeyFile: keys/rs.pem, realm: r2, audience: aud2 }
    - { name: es, driver: ES256, issuer: i3, clientId: c3, jwksFile: keys/es.json }
    - { name: oidc, driver: OpenIDConnect, issuer: 'https://idp/realms/x', clientId: sluice, default: true, uidClaim: email, maxTokenAge: 3600, clockSkew: 5 }
graphql:
  introspection: false
  maxDepth: 10
`,
      FILE,
    );
    expect(config.auth.keyEncryptionKeyFile).toBe('/etc/sluice/secrets/kek');
    expect(config.auth.authenticators.map((a) => a.driver)).toEqual(['HS256', 'RS256', 'ES256', 'OpenIDConnect']);
    expect(config.auth.authenticators[0]).toMatchObject({
      secretFile: '/etc/sluice/hs.secret',
      uidClaim: 'sub',
      clockSkew: 0,
      allowAuthzOverride: false,
    });
    expect(config.auth.authenticators[1]).toMatchObject({ publicKeyFile: '/etc/sluice/keys/rs.pem' });
    expect(config.auth.authenticators[2]).toMatchObject({ jwksFile: path.join('/etc/sluice', 'keys/es.json') });
    expect(config.auth.authenticators[3]).toMatchObject({
      scope: 'openid profile',
      loadUserInfo: true,
      keysCacheTtl: 600,
      uidClaim: 'email',
      maxTokenAge: 3600,
    });
    expect(config.graphql).toMatchObject({ introspection: false, maxDepth: 10, maxCost: 50_000 });
  });

  it('reports problems with file, line and key', () => {
    expect(
      problems('auth:\n  authenticators:\n    - name: a\n      driver: HS512\n      issuer: x\n      clientId: y\n'),
    ).toEqual([
      '/etc/sluice/sluice.yaml:4: auth.authenticators.0.driver: unknown authenticator driver (supported: HS256, RS256, ES256, OpenIDConnect)',
    ]);
    expect(
      problems(
        'auth:\n  authenticators:\n    - { name: a, driver: HS256, issuer: x, clientId: y, secret: s, secretFile: f }\n',
      ),
    ).toEqual([
      '/etc/sluice/sluice.yaml:3: auth.authenticators.0.secret: give exactly one of "secret" and "secretFile"',
    ]);
    expect(problems('auth:\n  authenticators:\n    - { name: a, driver: RS256, issuer: x, clientId: y }\n')).toEqual([
      '/etc/sluice/sluice.yaml:2: auth.authenticators.0.publicKeyFile: give exactly one of "publicKeyFile" and "jwksFile"',
    ]);
    expect(problems('auth:\n  authenticators:\n    - { name: a, driver: HS256, issuer: x, secret: s }\n')).toEqual([
      '/etc/sluice/sluice.yaml:2: auth.authenticators.0.clientId: is required',
    ]);
    expect(
      problems(
        'auth:\n  authenticators:\n    - { name: a, driver: HS256, issuer: x, clientId: y, secret: s, skew: 3 }\n',
      ),
    ).toEqual(['/etc/sluice/sluice.yaml:3: unknown key "auth.authenticators.0.skew"']);
    expect(
      problems(`auth:
  keyEncryptionKey: short
  authenticators:
    - { name: a, driver: HS256, issuer: x, clientId: y, secret: s, default: true }
    - { name: a, driver: HS256, issuer: z, clientId: y, secret: s, default: true }
`),
    ).toEqual([
      '/etc/sluice/sluice.yaml:2: auth.keyEncryptionKey: must be at least 16 characters',
      '/etc/sluice/sluice.yaml:5: auth.authenticators.1.name: duplicate authenticator name "a"',
      '/etc/sluice/sluice.yaml:3: auth.authenticators: at most one authenticator may set "default: true"',
    ]);
    expect(problems('graphql: 3\n')).toEqual([
      '/etc/sluice/sluice.yaml:1: graphql: the "graphql" section must be a mapping',
    ]);
    expect(problems('graphql:\n  maxDepth: 0\n')).toEqual([
      '/etc/sluice/sluice.yaml:2: graphql.maxDepth: Too small: expected number to be >0',
    ]);
  });
});

describe('info capabilities', () => {
  const auth = parseServiceConfig(
    `auth:
  authenticators:
    - { name: zuul_operator, driver: HS256, realm: zuul.example.com, issuer: zuul_operator, clientId: zuul.example.com, secret: s }
    - { name: oidc, driver: OpenIDConnect, realm: myOIDC1, issuer: 'http://oidc1', clientId: zuul, default: true }
`,
    FILE,
  ).auth;

  it('lists realms in the REST wire shape of /api/info', () => {
    expect(realmsWire(authRealms(auth))).toEqual({
      'zuul.example.com': { authority: 'zuul_operator', client_id: 'zuul.example.com', type: 'JWT', driver: 'HS256' },
      myOIDC1: {
        authority: 'http://oidc1',
        client_id: 'zuul',
        type: 'JWT',
        driver: 'OpenIDConnect',
        scope: 'openid profile',
        load_user_info: true,
      },
    });
  });

  it('picks the default realm: override, then default flag, then first, else null', () => {
    expect(defaultRealm(auth)).toBe('myOIDC1');
    expect(defaultRealm(auth, 'tenant-realm')).toBe('tenant-realm');
    expect(defaultRealm({ authenticators: auth.authenticators.slice(0, 1) })).toBe('zuul.example.com');
    expect(defaultRealm({ authenticators: [] })).toBeNull();
  });
});

describe('control rate limiter', () => {
  it('allows a burst, then refills at the sustained rate', () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const limiter = new TokenBucketLimiter({ burst: 3, perMinute: 6, now: () => now });
    expect([limiter.take('k'), limiter.take('k'), limiter.take('k')].map((d) => d.allowed)).toEqual([true, true, true]);
    expect(limiter.take('k')).toEqual({ allowed: false, retryAfterSeconds: 10 });
    expect(limiter.take('other').allowed).toBe(true);
    now = new Date(now.getTime() + 5_000);
    expect(limiter.take('k')).toEqual({ allowed: false, retryAfterSeconds: 5 });
    now = new Date(now.getTime() + 5_000);
    expect(limiter.take('k')).toEqual({ allowed: true, remaining: 0 });
    now = new Date(now.getTime() + 3_600_000);
    expect(limiter.take('k')).toEqual({ allowed: true, remaining: 2 });
  });

  it('drops idle buckets when many keys are tracked', () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const limiter = new TokenBucketLimiter({ burst: 1, perMinute: 60, now: () => now, maxKeys: 2 });
    limiter.take('a');
    limiter.take('b');
    now = new Date(now.getTime() + 2_000);
    limiter.take('c');
    // 'a' and 'b' refilled and were dropped; a fresh bucket behaves the same.
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
  });

  it('keys buckets by authenticator, subject and tenant', () => {
    const principal = (subject: string, name = 'a'): Principal => ({
      subject,
      claims: {},
      authenticator: { name, realm: 'r', uidClaim: 'sub', allowAuthzOverride: false },
    });
    expect(controlRateLimitKey(principal('alice'), 't1')).not.toBe(controlRateLimitKey(principal('alice'), 't2'));
    expect(controlRateLimitKey(principal('alice'), 't1')).not.toBe(controlRateLimitKey(principal('alice', 'b'), 't1'));
    expect(controlRateLimitKey(principal('alice'), 't1')).toBe(controlRateLimitKey(principal('alice'), 't1'));
  });
});
