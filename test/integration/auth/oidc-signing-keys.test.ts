/**
 * The OIDC signing keys in the store, on both backends (docs/security.md#oidc-tokens): created on
 * first need, private parts encrypted, rotated on the interval with an injected clock (versions
 * kept while tokens they signed may be valid), also by the scheduler side's task.
 */
import { jwtVerify, SignJWT, createLocalJWKSet } from 'jose';
import { parseServiceConfig } from '../../../src/config/service';
import { KeyDecryptionError, KeyEncryptor } from '../../../src/auth/keys/key-encryption';
import { OidcSigningKeys, UnsupportedSigningAlgorithmError } from '../../../src/auth/keys/oidc-signing-keys';
import { KeyManager } from '../../../src/auth/keys/key-manager';
import type { Layout } from '../../../src/config/layout';
import { silentLogger } from '../../../src/server/logger';
import { OidcService } from '../../../src/server/oidc-service';
import { KeyRepository } from '../../../src/store/repositories/keys';
import { OidcSigningKeyRepository } from '../../../src/store/repositories/oidc-signing-keys';
import { FakeTimerClock } from '../../helpers/fake-timer-clock';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';

const HOUR = 3600;
const DAY = 24 * HOUR;

describe.each(backends())('OIDC signing keys on %s', (backend) => {
  let database: TestDatabase;
  let encryptor: KeyEncryptor;
  let clock = new Date('2026-11-29T00:00:00Z');

  beforeAll(async () => {
    database = await createTestDatabase({ backend });
    encryptor = await KeyEncryptor.fromSecret('a-test-key-encryption-secret');
  });

  afterAll(async () => {
    await database.destroy();
  });

  beforeEach(async () => {
    await database.knex('oidc_signing_keys').delete();
    clock = new Date('2026-11-29T00:00:00Z');
  });

  const keys = (withEncryptor = encryptor) =>
    new OidcSigningKeys({
      repository: new OidcSigningKeyRepository(database.knex),
      encryptor: withEncryptor,
      now: () => clock,
    });
  const advance = (seconds: number) => (clock = new Date(clock.getTime() + seconds * 1000));
  const versions = async () =>
    (await database.knex('oidc_signing_keys').orderBy('version').select('version')).map((row) => row.version as number);

  it('creates version 0 on first need, once, with the private key encrypted, and publishes it as a JWK', async () => {
    const [first, second] = await Promise.all([keys().latest('RS256'), keys().latest('RS256')]);
    expect(first.kid).toBe('RS256-0');
    expect(second.kid).toBe('RS256-0');
    expect(await versions()).toEqual([0]);
    const [row] = await database.knex('oidc_signing_keys').select('private_key_encrypted');
    expect(row.private_key_encrypted).toMatch(/^sluice-aes256gcm-v1:/);
    expect(row.private_key_encrypted).not.toContain('PRIVATE KEY');

    const jwks = await keys().jwks(['RS256']);
    expect(jwks.keys).toEqual([
      expect.objectContaining({ kty: 'RSA', e: 'AQAB', alg: 'RS256', use: 'sig', kid: 'RS256-0' }),
    ]);
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const token = await new SignJWT({ sub: 'x' })
      .setProtectedHeader({ alg: 'RS256', kid: first.kid })
      .sign(first.privateKey);
    await expect(jwtVerify(token, createLocalJWKSet(jwks))).resolves.toMatchObject({ payload: { sub: 'x' } });

    const other = await KeyEncryptor.fromSecret('another-key-encryption-secret');
    await expect(keys(other).latest('RS256')).rejects.toBeInstanceOf(KeyDecryptionError);
    await expect(keys().latest('HS256')).rejects.toBeInstanceOf(UnsupportedSigningAlgorithmError);
  });

  it('rotates on the interval and deletes a version once no token it signed can be valid', async () => {
    const interval = 7 * DAY;
    const maxTtl = 3 * HOUR;
    expect(await keys().rotate('RS256', interval, maxTtl)).toEqual({ created: 0, deleted: 0 });
    advance(interval - 60);
    expect(await keys().rotate('RS256', interval, maxTtl)).toEqual({ deleted: 0 });
    advance(120);
    expect(await keys().rotate('RS256', interval, maxTtl)).toEqual({ created: 1, deleted: 0 });
    expect((await keys().latest('RS256')).kid).toBe('RS256-1');
    // Tokens of version 0 signed just before the rotation live up to maxTtl: it stays until then.
    advance(maxTtl - 60);
    expect(await keys().rotate('RS256', interval, maxTtl)).toEqual({ deleted: 0 });
    expect((await keys().jwks(['RS256'])).keys.map((key) => key.kid)).toEqual(['RS256-0', 'RS256-1']);
    advance(120);
    expect(await keys().rotate('RS256', interval, maxTtl)).toEqual({ deleted: 1 });
    expect(await versions()).toEqual([1]);
    // A max ttl longer than the interval keeps several versions.
    advance(interval);
    await keys().rotate('RS256', interval, 3 * interval);
    advance(interval + 1);
    await keys().rotate('RS256', interval, 3 * interval);
    expect(await versions()).toEqual([1, 2, 3]);
  });

  it('the scheduler side rotates on the configured interval, on an injected clock, until stopped', async () => {
    const timers = new FakeTimerClock(Date.parse('2026-11-29T00:00:00Z'));
    const manager = new KeyManager({
      repository: new KeyRepository(database.knex),
      encryptor,
      oidcRepository: new OidcSigningKeyRepository(database.knex),
      now: () => timers.now(),
    });
    const service = new OidcService({
      config: parseServiceConfig('oidc:\n  signingKeyRotationInterval: 7200\n', '/tmp/sluice-oidc.yaml'),
      keys: () => Promise.resolve(manager),
      layout: () => ({ tenant: { maxOidcTtl: 600 } }) as Layout,
      tenantNames: () => ['acme'],
      publicUrl: () => 'https://ci.example.com/',
      logger: silentLogger(),
      timers,
    });
    expect(service.maxTtl()).toBe(600);
    const rotation = service.startRotation();
    const step = async (seconds: number) => {
      await timers.advance(seconds * 1000);
      await rotation.idle();
    };
    await step(0);
    expect(await versions()).toEqual([0]); // at start
    await step(HOUR); // checked every hour (the interval is longer)
    await step(HOUR); // exactly the interval old: kept
    expect(await versions()).toEqual([0]);
    await step(HOUR);
    expect(await versions()).toEqual([0, 1]);
    await step(HOUR); // version 1 is older than the longest max-oidc-ttl: version 0 goes
    expect(await versions()).toEqual([1]);
    await rotation.stop(0);
    await step(10 * DAY);
    expect(await versions()).toEqual([1]);
    expect(timers.pending).toEqual([]);
  });
});
