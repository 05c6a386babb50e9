/**
 * The security core on the REST layer: unknown tenant 404 first, then the endpoint's gate
 * (401 with the reference JSON and WWW-Authenticate, 403 with the JSON error body); restricted
 * tenants hidden from anonymous listings; key endpoints serve parseable public keys, and a
 * secret encrypted with OpenSSL and the served key decrypts with the project's private key.
 */
import { execFileSync } from 'node:child_process';
import { createHmac, createPublicKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tenantFilePolicies } from '../../../src/auth/gate';
import { decryptSecret } from '../../../src/secrets/encryption';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { adminToken, liveTestConfig, startLiveServer, type LiveServer } from '../../helpers/live';
import { expect403 } from '../../helpers/rest-auth';

const OPEN = 'open-tenant';
const OTHER = 'other-tenant';
const RESTRICTED = 'restricted';
const READER = { resources_access: { sluice: { roles: 'reader' } } };

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);
const claims = (extra: Record<string, unknown> = {}) => ({
  iss: 'sluice-test',
  aud: 'sluice',
  sub: 'x',
  iat: nowSeconds(),
  exp: nowSeconds() + 600,
  zuul: { admin: [OPEN] },
  ...extra,
});
function hs256(payload: object, secret: string): string {
  const input = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

const INVALID_TOKENS = [
  {
    name: 'expired',
    token: adminToken(OPEN, { iat: nowSeconds() - 1200, exp: nowSeconds() - 600 }),
    error: 'TokenExpiredError',
  },
  { name: 'bad signature', token: hs256(claims(), 'wrong-secret'), error: 'AuthTokenInvalidSignatureException' },
  {
    name: 'alg none',
    token: `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims())}.`,
    error: 'AuthTokenUnauthorizedException',
  },
  {
    name: 'wrong audience',
    token: hs256(claims({ aud: 'other' }), 'live-test-secret-of-some-length'),
    error: 'IncorrectAudienceError',
  },
];

/** Reads the RSA modulus size out of an `ssh-rsa` public key line. */
function sshRsaModulusBits(line: string): number {
  const [type, data] = line.trim().split(' ');
  expect(type).toBe('ssh-rsa');
  const blob = Buffer.from(data ?? '', 'base64');
  const fields: Buffer[] = [];
  for (let offset = 0; offset < blob.length;) {
    const length = blob.readUInt32BE(offset);
    fields.push(blob.subarray(offset + 4, offset + 4 + length));
    offset += 4 + length;
  }
  expect(fields[0]?.toString()).toBe('ssh-rsa');
  const modulus = fields[2] ?? Buffer.alloc(0);
  return (modulus[0] === 0 ? modulus.length - 1 : modulus.length) * 8;
}

describe('security wiring over REST', () => {
  let db: TestDatabase;
  let server: LiveServer;
  let dir: string;

  const get = (route: string, token?: string) =>
    fetch(`${server.url}/api/${route}`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'sluice-wire-rest-'));
    const tenantFile = path.join(dir, 'main.yaml');
    writeFileSync(
      tenantFile,
      `- tenant:\n    name: ${OPEN}\n    source:\n      gerrit:\n        untrusted-projects:\n          - org/project\n`,
    );
    const policies = tenantFilePolicies({
      rules: [{ name: 'readers', conditions: [READER] }],
      tenants: [{ name: OPEN }, { name: OTHER }, { name: RESTRICTED, accessRules: ['readers'] }],
    });
    server = await startLiveServer(db, {
      config: { ...liveTestConfig(), tenantConfig: tenantFile, dataDir: dir },
      tenants: { tenantNames: () => [OPEN, OTHER, RESTRICTED], layout: () => undefined },
      policies: () => policies,
    });
  });

  afterAll(async () => {
    await server.stop();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 404 for an unknown tenant before any auth check', async () => {
    const res = await get('tenant/no-such/authorizations');
    expect(res.status).toBe(404);
    expect(res.headers.get('www-authenticate')).toBeNull();
  });

  it('token endpoints: 401 with the reference body for no or invalid tokens, 200 for a valid one', async () => {
    const anonymous = await get(`tenant/${OPEN}/authorizations`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({
      description: 'Missing "Authorization" header',
      error: 'MissingAuthError',
      realm: 'sluice',
    });
    expect(anonymous.headers.get('www-authenticate')).toBe(
      'Bearer realm="sluice"       error="MissingAuthError"       error_description="Missing \\"Authorization\\" header"',
    );
    for (const invalid of INVALID_TOKENS) {
      const res = await get(`tenant/${OPEN}/authorizations`, invalid.token);
      expect({
        name: invalid.name,
        status: res.status,
        error: ((await res.json()) as { error: string }).error,
      }).toEqual({ name: invalid.name, status: 401, error: invalid.error });
    }
    expect(await (await get(`tenant/${OPEN}/authorizations`, adminToken(OPEN))).json()).toEqual({
      zuul: { admin: true, scope: [OPEN] },
    });
    expect(await (await get(`tenant/${OTHER}/authorizations`, adminToken(OPEN))).json()).toEqual({
      zuul: { admin: false, scope: [OTHER] },
    });
    expect(await (await get('authorizations', adminToken('*'))).json()).toEqual({
      zuul: { admin: true, scope: ['*'] },
    });
  });

  it('restricted tenant: anonymous 401, non-reader 403 with the JSON error body, reader and admin 200; hidden from anonymous listing', async () => {
    const anonymous = await get(`tenant/${RESTRICTED}/builds`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain('MissingAuthError');
    const outsider = await get(`tenant/${RESTRICTED}/builds`, adminToken(OPEN));
    await expect403(outsider);
    for (const invalid of INVALID_TOKENS) {
      expect((await get(`tenant/${RESTRICTED}/builds`, invalid.token)).status).toBe(401);
    }
    expect((await get(`tenant/${RESTRICTED}/builds`, adminToken('nowhere', READER))).status).toBe(200);
    expect((await get(`tenant/${RESTRICTED}/builds`, adminToken(RESTRICTED))).status).toBe(200);
    // An open tenant ignores an invalid token.
    expect((await get(`tenant/${OPEN}/builds`, INVALID_TOKENS[0]?.token)).status).toBe(200);

    const names = async (token?: string) =>
      ((await (await get('tenants', token)).json()) as Array<{ name: string }>).map((t) => t.name).sort();
    expect(await names()).toEqual([OPEN, OTHER]);
    expect(await names(adminToken('nowhere', READER))).toEqual([OPEN, OTHER, RESTRICTED]);
  });

  it('serves parseable keys as text/plain; an OpenSSL OAEP secret made with the served key decrypts', async () => {
    const pemResponse = await get(`tenant/${OPEN}/key/org/project.pub`);
    expect(pemResponse.status).toBe(200);
    expect(pemResponse.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const pem = await pemResponse.text();
    const publicKey = createPublicKey(pem);
    expect(publicKey.asymmetricKeyDetails?.modulusLength).toBe(4096);
    // Short and canonical names reach the same key.
    expect(await (await get(`tenant/${OPEN}/key/gerrit/org/project.pub`)).text()).toBe(pem);
    expect((await get(`tenant/${OPEN}/key/org/nope.pub`)).status).toBe(404);

    const projectSsh = await (await get(`tenant/${OPEN}/project-ssh-key/org/project.pub`)).text();
    expect(projectSsh.endsWith('\n')).toBe(true);
    expect(sshRsaModulusBits(projectSsh)).toBe(2048);
    const tenantSsh = await (await get(`tenant/${OPEN}/tenant-ssh-key/ssh.pub`)).text();
    expect(sshRsaModulusBits(tenantSsh)).toBe(2048);
    expect(tenantSsh).not.toBe(projectSsh);

    const keyFile = path.join(dir, 'project.pub');
    writeFileSync(keyFile, pem);
    const ciphertext = execFileSync(
      'openssl',
      ['pkeyutl', '-encrypt', '-pubin', '-inkey', keyFile, '-pkeyopt', 'rsa_padding_mode:oaep'],
      { input: 's3cret-value' },
    );
    const keys = await server.app.services.auth.keys();
    const privateKey = (await keys.secretsKey('gerrit/org/project')).privateKey();
    expect(decryptSecret(ciphertext.toString('base64'), privateKey)).toBe('s3cret-value');
    // Generating an RSA-4096 key takes seconds, more on a loaded machine.
  }, 120_000);
});
