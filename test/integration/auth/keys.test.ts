import { execFileSync } from 'node:child_process';
import { constants, createPublicKey, privateDecrypt, publicEncrypt } from 'node:crypto';
import { inspect } from 'node:util';
import { readdirSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';
import { KeyRepository } from '../../../src/store/repositories/keys';
import { KeyDecryptionError, KeyEncryptor, resolveKeyEncryptionSecret } from '../../../src/auth/keys/key-encryption';
import { DEFAULT_KEY_SIZES, KeyManager } from '../../../src/auth/keys/key-manager';
import { decryptSecret } from '../../../src/secrets/encryption';
import { temporaryDirectory } from '../../helpers/temporary-directory';

const SIZES = { secrets: 1024, projectSsh: 1024, tenantSsh: 1024 };
const work = temporaryDirectory('sluice-keys-');

describe.each(backends())('keys on %s', (backend) => {
  let database: TestDatabase;
  let encryptor: KeyEncryptor;

  beforeAll(async () => {
    database = await createTestDatabase({ backend });
    encryptor = await KeyEncryptor.fromSecret('a-test-key-encryption-secret');
  });

  afterAll(async () => {
    await database.destroy();
  });

  const manager = (options: { encryptor?: KeyEncryptor } = {}) =>
    new KeyManager({
      repository: new KeyRepository(database.knex),
      encryptor: options.encryptor ?? encryptor,
      sizes: SIZES,
    });

  it('serves the secrets key as PEM SubjectPublicKeyInfo that node:crypto and openssl parse', async () => {
    const key = await manager().secretsKey('example.com/org/project');
    expect(key.publicKeyText).toMatch(/^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=\n]+-----END PUBLIC KEY-----\n$/);
    const parsed = createPublicKey(key.publicKeyText);
    expect(parsed.asymmetricKeyType).toBe('rsa');
    expect(parsed.asymmetricKeyDetails).toMatchObject({ modulusLength: 1024, publicExponent: 65537n });

    // Encrypt with OpenSSL using only the served public key; Sluice decrypts it.
    const pubFile = path.join(work, `${backend}-project.pub`);
    const plainFile = path.join(work, `${backend}-plain.txt`);
    writeFileSync(pubFile, key.publicKeyText);
    writeFileSync(plainFile, 'hunter2-from-openssl');
    const encrypted = execFileSync('openssl', [
      'pkeyutl',
      '-encrypt',
      '-pubin',
      '-inkey',
      pubFile,
      '-in',
      plainFile,
      '-pkeyopt',
      'rsa_padding_mode:oaep',
    ]);
    expect(decryptSecret(encrypted.toString('base64'), key.privateKey())).toBe('hunter2-from-openssl');
    // And with the hash spelled out, as some guides do.
    const explicit = execFileSync('openssl', [
      'pkeyutl',
      '-encrypt',
      '-pubin',
      '-inkey',
      pubFile,
      '-in',
      plainFile,
      '-pkeyopt',
      'rsa_padding_mode:oaep',
      '-pkeyopt',
      'rsa_oaep_md:sha1',
    ]);
    expect(decryptSecret(explicit.toString('base64'), key.privateKey())).toBe('hunter2-from-openssl');
  });

  it('serves SSH keys in OpenSSH one-line format that ssh-keygen reads', async () => {
    const keys = manager();
    const project = await keys.projectSshKey('example.com/org/project');
    const tenant = await keys.tenantSshKey('tenant-one');
    for (const key of [project, tenant]) {
      expect(key.publicKeyText).toMatch(/^ssh-rsa AAAAB3NzaC1yc2E[A-Za-z0-9+/=]+\n$/);
      const file = path.join(work, `${backend}-${key.kind}.pub`);
      writeFileSync(file, key.publicKeyText);
      const fingerprint = execFileSync('ssh-keygen', ['-l', '-f', file]).toString();
      expect(fingerprint).toMatch(/^1024 SHA256:\S+ .*\(RSA\)\n$/);
      // The private PEM matches the served public key.
      const privateFile = path.join(work, `${backend}-${key.kind}`);
      writeFileSync(privateFile, key.privateKeyPem(), { mode: 0o600 });
      expect(
        execFileSync('ssh-keygen', ['-y', '-f', privateFile]).toString().trim().split(' ').slice(0, 2).join(' '),
      ).toBe(key.publicKeyText.trim());
    }
    expect(project.publicKeyText).not.toBe(tenant.publicKeyText);
  });

  it('creates each key once: concurrent requests and separate managers get the same key', async () => {
    const owner = 'example.com/org/racy';
    const a = manager();
    const b = manager();
    const results = await Promise.all([
      a.secretsKey(owner),
      a.secretsKey(owner),
      b.secretsKey(owner),
      b.secretsKey(owner),
    ]);
    const texts = new Set(results.map((k) => k.publicKeyText));
    expect(texts.size).toBe(1);
    // A key one manager created decrypts what the other's public key encrypted.
    const ciphertext = publicEncrypt(
      { key: results[2].publicKey(), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
      Buffer.from('same key'),
    );
    expect(
      privateDecrypt(
        { key: results[0].privateKey(), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
        ciphertext,
      ).toString(),
    ).toBe('same key');
    expect(await new KeyRepository(database.knex).owners('secrets')).toContain(owner);
  });

  it('stores the private key encrypted and never serialises it', async () => {
    const key = await manager().secretsKey('example.com/org/stored');
    const stored = await new KeyRepository(database.knex).get('secrets', 'example.com/org/stored');
    expect(stored?.privateKeyEncrypted).toMatch(/^sluice-aes256gcm-v1:/);
    expect(stored?.privateKeyEncrypted).not.toContain('PRIVATE KEY');
    const serialised = JSON.stringify({ key }) + inspect(key, { depth: 5 });
    expect(serialised).not.toContain('PRIVATE KEY');
    expect(serialised).toContain('BEGIN PUBLIC KEY');
  });

  it('refuses to open keys with another key-encryption secret', async () => {
    await manager().tenantSshKey('tenant-locked');
    const other = manager({ encryptor: await KeyEncryptor.fromSecret('a-different-secret-value') });
    await expect(other.tenantSshKey('tenant-locked')).rejects.toBeInstanceOf(KeyDecryptionError);
  });
});

describe('key sizes', () => {
  it('defaults to the reference sizes: RSA 4096 for secrets, 2048 for SSH keys', () => {
    expect(DEFAULT_KEY_SIZES).toEqual({ secrets: 4096, projectSsh: 2048, tenantSsh: 2048 });
  });
});

describe('key-encryption secret', () => {
  it('binds ciphertext to its context', async () => {
    const encryptor = await KeyEncryptor.fromSecret('another-test-secret');
    const blob = encryptor.encrypt('private', 'secrets:a');
    expect(encryptor.decrypt(blob, 'secrets:a')).toBe('private');
    expect(() => encryptor.decrypt(blob, 'secrets:b')).toThrow(KeyDecryptionError);
    expect(() => encryptor.decrypt('garbage', 'secrets:a')).toThrow('cannot decrypt the private key of secrets:a');
  });

  it('uses the configured value, a file, or generates one in the data directory once', async () => {
    const dataDir = path.join(work, 'data');
    expect(
      await resolveKeyEncryptionSecret({ authenticators: [], keyEncryptionKey: 'configured-secret-123' }, dataDir),
    ).toEqual({
      secret: 'configured-secret-123',
      source: 'config',
    });
    const file = path.join(work, 'kek');
    writeFileSync(file, 'from-a-file-0123456789\n');
    expect(await resolveKeyEncryptionSecret({ authenticators: [], keyEncryptionKeyFile: file }, dataDir)).toMatchObject(
      { secret: 'from-a-file-0123456789', source: 'file' },
    );

    const [first, second] = await Promise.all([
      resolveKeyEncryptionSecret({ authenticators: [] }, dataDir),
      resolveKeyEncryptionSecret({ authenticators: [] }, dataDir),
    ]);
    expect(first.secret).toBe(second.secret);
    expect([first.source, second.source].sort()).toEqual(['data-dir', 'generated']);
    const generated = path.join(dataDir, 'key-encryption.key');
    expect(readFileSync(generated, 'utf8').trim()).toBe(first.secret);
    expect(Buffer.from(first.secret, 'base64')).toHaveLength(32);
    expect(statSync(generated).mode & 0o777).toBe(0o600);
    // The drafts each process wrote before publishing are gone.
    expect(readdirSync(dataDir)).toEqual(['key-encryption.key']);
    expect((await resolveKeyEncryptionSecret({ authenticators: [] }, dataDir)).secret).toBe(first.secret);
  });
});
