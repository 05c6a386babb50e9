/**
 * docs/configuration.md#files-the-configuration-names: a file the service configuration names
 * that is missing or does not hold what its key says is a configuration error at load, one line
 * with the configuration file, the line and the key.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadServiceConfig, ServiceConfigError } from '../../../src/config/service';

describe('files the service configuration names', () => {
  let dir: string;
  const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-service-files-'));
    writeFileSync(path.join(dir, 'app.pem'), rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(path.join(dir, 'ec-public.pem'), ec.publicKey.export({ type: 'spki', format: 'pem' }));
    writeFileSync(path.join(dir, 'rsa-public.pem'), rsa.publicKey.export({ type: 'spki', format: 'pem' }));
    writeFileSync(path.join(dir, 'not-a-key.pem'), 'not a pem\n');
    writeFileSync(path.join(dir, 'jwks.json'), '{"keys": []}');
    writeFileSync(path.join(dir, 'short.key'), 'too short\n');
    writeFileSync(path.join(dir, 'main.yaml'), '[]\n');
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The problems loading `yaml` reports (none: an empty list). */
  function problems(yaml: string): string[] {
    const file = path.join(dir, 'sluice.yaml');
    writeFileSync(file, yaml);
    try {
      loadServiceConfig(file);
      return [];
    } catch (err) {
      if (err instanceof ServiceConfigError) {
        return err.problems;
      }
      throw err;
    }
  }

  const github = (keyFile: string) =>
    `connections:\n  github:\n    driver: github\n    appId: 1\n    appKeyFile: ${keyFile}\n    webhookToken: s\n`;

  it('accepts files that hold what their keys say', () => {
    expect(
      problems(
        `tenantConfig: main.yaml\n${github('app.pem')}auth:\n  keyEncryptionKeyFile: app.pem\n  authenticators:\n` +
          '    - {name: a, driver: RS256, issuer: i, clientId: c, publicKeyFile: rsa-public.pem}\n' +
          '    - {name: b, driver: ES256, issuer: i, clientId: c, publicKeyFile: ec-public.pem}\n' +
          '    - {name: c, driver: ES256, issuer: i, clientId: c, jwksFile: jwks.json}\n',
      ),
    ).toEqual([]);
  });

  it('names a missing GitHub App key with the file, line and key', () => {
    expect(problems(github('missing.pem'))).toEqual([
      `${path.join(dir, 'sluice.yaml')}:5: connections.github.appKeyFile: cannot read ${path.join(dir, 'missing.pem')}: no such file`,
    ]);
  });

  it('refuses a GitHub App key that is not an RSA private key in PEM', () => {
    expect(problems(github('not-a-key.pem'))).toEqual([
      `${path.join(dir, 'sluice.yaml')}:5: connections.github.appKeyFile: ${path.join(dir, 'not-a-key.pem')} does not hold an RSA private key in PEM`,
    ]);
  });

  it('checks public keys against the driver, JWKS documents, the key-encryption secret and the tenant file', () => {
    const found = problems(
      'tenantConfig: nowhere.yaml\nauth:\n  keyEncryptionKeyFile: short.key\n  authenticators:\n' +
        '    - {name: a, driver: RS256, issuer: i, clientId: c, publicKeyFile: ec-public.pem}\n' +
        '    - {name: b, driver: ES256, issuer: i, clientId: c, jwksFile: not-a-key.pem}\n',
    );
    expect(found).toEqual([
      expect.stringMatching(/sluice\.yaml:1: tenantConfig: cannot read .*nowhere\.yaml: no such file$/),
      expect.stringMatching(/sluice\.yaml:3: auth\.keyEncryptionKeyFile: .*short\.key holds fewer than 16 characters$/),
      expect.stringMatching(
        /sluice\.yaml:5: auth\.authenticators\.0\.publicKeyFile: .*ec-public\.pem holds a key of type ec, not an RSA public key in PEM$/,
      ),
      expect.stringMatching(/sluice\.yaml:6: auth\.authenticators\.1\.jwksFile: .*not-a-key\.pem is not JSON/),
    ]);
  });
});
