/**
 * `auth.localAdmin`: a per-install admin secret in the data directory, created once by whichever
 * of `sluice serve` and `sluice token create` runs first, and an HS256 authenticator that trusts
 * the tokens `sluice token create` signs with it.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tokenCommand, type AuthCommandDeps } from '../../src/auth/cli-commands';
import { ensureLocalAdminSecret } from '../../src/auth/local-admin';
import { loadServiceConfig, ServiceConfigError } from '../../src/config/service';
import { startTestServer, type TestServer } from '../helpers/server';
import { temporaryDirectory } from '../helpers/temporary-directory';

const dir = temporaryDirectory('sluice-local-admin-');
const configFile = path.join(dir, 'sluice.yaml');
writeFileSync(configFile, 'dataDir: data\nauth: {localAdmin: true}\n');

function tokenDeps(captured: { stdout: string; stderr: string }): AuthCommandDeps {
  return {
    io: {
      stdout: { write: (t: string) => (captured.stdout += t) },
      stderr: { write: (t: string) => (captured.stderr += t) },
      readStdin: () => Promise.resolve(''),
    },
    loadConfig: () => loadServiceConfig(configFile),
    openDatabase: () => {
      throw new Error('token create needs no database');
    },
    now: () => new Date('2026-11-22T12:00:00Z'),
  };
}

describe('auth.localAdmin', () => {
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('adds the authenticator "local" over <dataDir>/local-admin.secret', () => {
    const config = loadServiceConfig(configFile);
    expect(config.auth.authenticators).toEqual([
      expect.objectContaining({
        name: 'local',
        driver: 'HS256',
        secretFile: path.join(dir, 'data', 'local-admin.secret'),
        allowAuthzOverride: true,
      }),
    ]);
  });

  it('refuses a configured authenticator of the same name', () => {
    const clash = path.join(dir, 'clash.yaml');
    writeFileSync(
      clash,
      'auth:\n  localAdmin: true\n  authenticators:\n    - {name: local, driver: HS256, secret: s, issuer: i, clientId: c}\n',
    );
    expect(() => loadServiceConfig(clash)).toThrow(ServiceConfigError);
    expect(() => loadServiceConfig(clash)).toThrow('auth.localAdmin adds an authenticator named "local"');
  });

  it('creates the secret once (mode 0600), even when two processes race for it', async () => {
    const config = loadServiceConfig(configFile);
    await Promise.all([ensureLocalAdminSecret(config), ensureLocalAdminSecret(config)]);
    const file = path.join(dir, 'data', 'local-admin.secret');
    const secret = readFileSync(file, 'utf8');
    expect(Buffer.from(secret.trim(), 'base64')).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.join(dir, 'data'))).toEqual(['local-admin.secret']);
    await ensureLocalAdminSecret(config);
    expect(readFileSync(file, 'utf8')).toBe(secret);
  });

  it('token create signs with it, states the lifetime, and the server accepts the token', async () => {
    const captured = { stdout: '', stderr: '' };
    expect(await tokenCommand(['create', '--tenant', 'example', '--sub', 'me'], tokenDeps(captured))).toBe(0);
    expect(captured.stdout).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+\n$/);
    expect(captured.stderr).toBe(
      'sluice: the token is valid for 600 s (until 2026-11-22T12:10:00.000Z); --ttl SECONDS changes that\n',
    );

    server = await startTestServer({ config: loadServiceConfig(configFile), tenants: ['example'] });
    const fresh = { stdout: '', stderr: '' };
    const realNow = { ...tokenDeps(fresh), now: () => new Date() };
    expect(await tokenCommand(['create', '--tenant', 'example', '--sub', 'me'], realNow)).toBe(0);
    const rights = await fetch(`${server.url}/api/tenant/example/authorizations`, {
      headers: { authorization: fresh.stdout.trim() },
    });
    expect(rights.status).toBe(200);
    expect(await rights.json()).toMatchObject({ zuul: { admin: true } });
    const anonymous = await fetch(`${server.url}/api/tenant/example/authorizations`);
    expect(anonymous.status).toBe(401);
  });
});
