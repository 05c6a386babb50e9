/**
 * `!encrypted/pkcs1-oaep` secrets (engine.md §5.2): RSAES-OAEP with SHA-1 (hash and MGF1) and
 * an empty label, the plaintext split into chunks of at most key bytes − 42, each chunk
 * encrypted on its own and base64-encoded. Compatible with the reference's tools and with
 * `openssl pkeyutl -encrypt -pkeyopt rsa_padding_mode:oaep` (SHA-1 is OpenSSL's default).
 */
import { constants, privateDecrypt, publicEncrypt, type KeyObject } from 'node:crypto';

/** OAEP-SHA1 overhead: 2 × 20-byte hash + 2. */
const OAEP_SHA1_OVERHEAD = 42;

/** The largest plaintext chunk for a key: 470 bytes for 4096-bit keys. */
export function maxChunkBytes(publicKey: KeyObject): number {
  const bits = publicKey.asymmetricKeyDetails?.modulusLength;
  if (publicKey.asymmetricKeyType !== 'rsa' || bits === undefined) {
    throw new Error('secrets are encrypted with RSA keys');
  }
  return bits / 8 - OAEP_SHA1_OVERHEAD;
}

/**
 * Split UTF-8 text into chunks of at most `maxBytes` bytes without cutting a character in
 * two (each chunk is decoded on its own when decrypting).
 */
export function splitUtf8(text: string, maxBytes: number): Buffer[] {
  const chunks: Buffer[] = [];
  let current: Buffer[] = [];
  let size = 0;
  for (const char of text) {
    const bytes = Buffer.from(char, 'utf8');
    if (size + bytes.length > maxBytes && size > 0) {
      chunks.push(Buffer.concat(current));
      current = [];
      size = 0;
    }
    current.push(bytes);
    size += bytes.length;
  }
  if (size > 0 || chunks.length === 0) {
    chunks.push(Buffer.concat(current));
  }
  return chunks;
}

export interface EncryptOptions {
  /** Strip surrounding whitespace first, as the reference tool does by default. */
  strip?: boolean;
}

/** Encrypt a secret value; returns one base64 string per chunk. */
export function encryptSecret(plaintext: string, publicKey: KeyObject, options: EncryptOptions = {}): string[] {
  const text = (options.strip ?? true) ? plaintext.trim() : plaintext;
  return splitUtf8(text, maxChunkBytes(publicKey)).map((chunk) =>
    publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' }, chunk).toString(
      'base64',
    ),
  );
}

/** A chunk that does not decrypt with the project's key. */
export class SecretDecryptionError extends Error {
  constructor(readonly chunk: number) {
    super(`chunk ${chunk + 1} of the encrypted value could not be decrypted with the project key`);
    this.name = 'SecretDecryptionError';
  }
}

/**
 * Decrypt an `!encrypted/pkcs1-oaep` value: one base64 scalar or a list of them. Whitespace
 * inside a chunk (folded or block YAML scalars) is ignored, as base64 decoding does in the
 * reference.
 * @throws SecretDecryptionError naming the chunk (never its content)
 */
export function decryptSecret(value: string | readonly string[], privateKey: KeyObject): string {
  const chunks = typeof value === 'string' ? [value] : value;
  return chunks
    .map((chunk, index) => {
      const ciphertext = Buffer.from(chunk.replace(/\s+/g, ''), 'base64');
      try {
        const plain = privateDecrypt(
          { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
          ciphertext,
        );
        return new TextDecoder('utf-8', { fatal: true }).decode(plain);
      } catch {
        throw new SecretDecryptionError(index);
      }
    })
    .join('');
}

export interface SecretStanzaOptions {
  /** Secret name; the reference tool prints the placeholder `<name>`. */
  name?: string;
  /** Key under `data`; the reference tool prints `<fieldname>`. */
  field?: string;
}

/** Base64 characters per line in the stanza, as the reference tool wraps at 79 columns. */
const WRAP = 69;

/**
 * A `secret` stanza to paste into a project's configuration, laid out like the reference
 * tool's output: each chunk a list item, wrapped into continuation lines (YAML folds them
 * with spaces, which decryption ignores).
 */
export function secretStanza(chunks: readonly string[], options: SecretStanzaOptions = {}): string {
  const lines = [
    '- secret:',
    `    name: ${options.name ?? '<name>'}`,
    '    data:',
    `      ${options.field ?? '<fieldname>'}: !encrypted/pkcs1-oaep`,
  ];
  for (const chunk of chunks) {
    for (let offset = 0; offset < chunk.length; offset += WRAP) {
      const prefix = offset === 0 ? '        - ' : '          ';
      lines.push(prefix + chunk.slice(offset, offset + WRAP));
    }
  }
  return `${lines.join('\n')}\n`;
}
