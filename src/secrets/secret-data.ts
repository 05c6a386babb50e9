/**
 * A secret's `data` as the configuration keeps it: plain YAML values with every
 * `!encrypted/pkcs1-oaep` value replaced by `{encrypted: 'pkcs1-oaep', chunks: [...]}`
 * (src/config/schema-helpers.ts `toPlainData`). Decrypting it gives the data a job sees.
 */
import type { KeyObject } from 'node:crypto';
import { decryptSecret, SecretDecryptionError } from './encryption';

/** An encrypted value inside secret data. */
export interface EncryptedData {
  encrypted: 'pkcs1-oaep';
  chunks: string[];
}

export function isEncryptedData(value: unknown): value is EncryptedData {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return false;
  }
  const candidate = value as { encrypted?: unknown; chunks?: unknown };
  return (
    candidate.encrypted === 'pkcs1-oaep' &&
    Array.isArray(candidate.chunks) &&
    candidate.chunks.every((chunk) => typeof chunk === 'string') &&
    Object.keys(value).length === 2
  );
}

/** True when any value inside `data` is encrypted. */
export function hasEncryptedData(data: unknown): boolean {
  if (isEncryptedData(data)) {
    return true;
  }
  if (Array.isArray(data)) {
    return data.some(hasEncryptedData);
  }
  if (typeof data === 'object' && data !== null) {
    return Object.values(data).some(hasEncryptedData);
  }
  return false;
}

/** A value of the data did not decrypt; names where (never what). */
export class SecretDataError extends Error {
  constructor(
    /** Path of the value inside the secret, e.g. `data.password` or `data.tokens[1]`. */
    readonly path: string,
    /** 0-based chunk index. */
    readonly chunk: number,
  ) {
    super(`chunk ${chunk + 1} of ${path} could not be decrypted with the project key`);
    this.name = 'SecretDataError';
  }
}

/**
 * Decrypt every encrypted value of `data` with the project's private key; other values are
 * kept as they are.
 * @throws SecretDataError for the first value that does not decrypt
 */
export function decryptSecretData(data: unknown, privateKey: KeyObject, path = 'data'): unknown {
  if (isEncryptedData(data)) {
    try {
      return decryptSecret(data.chunks, privateKey);
    } catch (err) {
      if (err instanceof SecretDecryptionError) {
        throw new SecretDataError(path, err.chunk);
      }
      throw err;
    }
  }
  if (Array.isArray(data)) {
    return data.map((item, index) => decryptSecretData(item, privateKey, `${path}[${index}]`));
  }
  if (typeof data === 'object' && data !== null) {
    return Object.fromEntries(
      Object.entries(data).map(([key, value]) => [key, decryptSecretData(value, privateKey, `${path}.${key}`)]),
    );
  }
  return data;
}

/** Where a process gets projects' secrets keys (the KeyManager); only the private part is used. */
export interface SecretsKeySource {
  secretsKey(project: string): Promise<{ privateKey(): KeyObject }>;
}
