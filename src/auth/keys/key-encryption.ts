/**
 * Encryption of private keys at rest: AES-256-GCM under a key derived (scrypt) from the
 * operator's key-encryption secret. Each blob is bound to its key's kind and owner (as
 * authenticated data), so a row copied onto another owner does not decrypt.
 */
import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AuthConfig } from '../../config/service';
import { readOrCreateSecretFile } from '../secret-file';

const FORMAT = 'sluice-aes256gcm-v1';
// A fixed salt: the secret is one per deployment and expected to be random; scrypt slows
// guessing of a weak one.
const SALT = 'sluice key-encryption key v1';
const IV_BYTES = 12;

/** A private key could not be decrypted (wrong key-encryption secret, or a damaged row). */
export class KeyDecryptionError extends Error {
  constructor(context: string) {
    super(
      `cannot decrypt the private key of ${context}: the key-encryption secret differs from the one it was stored with, or the row is damaged`,
    );
    this.name = 'KeyDecryptionError';
  }
}

/** Encrypts and decrypts private keys with one derived AES key. */
export class KeyEncryptor {
  private constructor(private readonly key: Buffer) {}

  /** Derive the AES key from the operator's secret (takes ~100 ms, do it once). */
  static async fromSecret(secret: string): Promise<KeyEncryptor> {
    const key = await new Promise<Buffer>((resolve, reject) => {
      scrypt(secret, SALT, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }, (err, derived) =>
        err ? reject(err) : resolve(derived),
      );
    });
    return new KeyEncryptor(key);
  }

  /** Encrypt `plaintext`; `context` (e.g. "secrets:example.com/org/p") must be given again to decrypt. */
  encrypt(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [FORMAT, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(
      ':',
    );
  }

  /** @throws KeyDecryptionError */
  decrypt(blob: string, context: string): string {
    const [format, iv, tag, ciphertext] = blob.split(':');
    if (format !== FORMAT || iv === undefined || tag === undefined || ciphertext === undefined) {
      throw new KeyDecryptionError(context);
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      throw new KeyDecryptionError(context);
    }
  }
}

/** Name of the generated secret file inside the data directory. */
export const GENERATED_SECRET_FILE = 'key-encryption.key';

/** Where the key-encryption secret came from (for a start-up log line; never the value). */
export interface KeyEncryptionSecret {
  secret: string;
  source: 'config' | 'file' | 'generated' | 'data-dir';
  file?: string;
}

/**
 * The key-encryption secret: `auth.keyEncryptionKey`, else the contents of
 * `auth.keyEncryptionKeyFile`, else `<dataDir>/key-encryption.key`, created (mode 0600, 32
 * random bytes, base64) when missing. Processes sharing one PostgreSQL database must share
 * the secret, so scaled-out deployments set it explicitly.
 */
export async function resolveKeyEncryptionSecret(auth: AuthConfig, dataDir: string): Promise<KeyEncryptionSecret> {
  if (auth.keyEncryptionKey !== undefined) {
    return { secret: auth.keyEncryptionKey, source: 'config' };
  }
  if (auth.keyEncryptionKeyFile !== undefined) {
    const secret = (await readFile(auth.keyEncryptionKeyFile, 'utf8')).trim();
    if (secret.length < 16) {
      throw new Error(`${auth.keyEncryptionKeyFile}: the key-encryption secret must be at least 16 characters`);
    }
    return { secret, source: 'file', file: auth.keyEncryptionKeyFile };
  }
  const file = path.join(dataDir, GENERATED_SECRET_FILE);
  const { secret, created } = await readOrCreateSecretFile(file, 'key-encryption secret', 16);
  return { secret, source: created ? 'generated' : 'data-dir', file };
}

/**
 * The key-encryption secret as `resolveKeyEncryptionSecret` finds it, without creating the
 * data-directory file: undefined when none is configured and the file does not exist (no key
 * can have been stored with it). For read-only commands (`validate-config --decrypt-secrets`).
 */
export async function readKeyEncryptionSecret(auth: AuthConfig, dataDir: string): Promise<string | undefined> {
  if (auth.keyEncryptionKey !== undefined || auth.keyEncryptionKeyFile !== undefined) {
    return (await resolveKeyEncryptionSecret(auth, dataDir)).secret;
  }
  try {
    return (await readFile(path.join(dataDir, GENERATED_SECRET_FILE), 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      return undefined;
    }
    throw err;
  }
}
