/**
 * The files a service configuration names, checked when the configuration is loaded: each must
 * be readable and hold what its key says (a PEM private key, a public key, a JWKS document, a
 * secret), so a bad one is a configuration error naming the file's key, in one line, instead of
 * a failure at its first use (docs/configuration.md#files-the-configuration-names).
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ConnectionFileKind } from '../drivers/driver';
import { driverOf } from '../drivers/registry';
import type { ServiceConfig } from './service';

type FileKind = ConnectionFileKind | 'key-encryption-secret' | 'rsa-public-key' | 'ec-public-key' | 'jwks' | 'ssh-key';

export interface NamedFile {
  /** The key naming the file, as a path into the configuration (`connections.<name>.appKeyFile`). */
  keyPath: Array<string | number>;
  file: string;
  kind: FileKind;
}

/** Every file the configuration names that must exist at start (files Sluice creates itself left out). */
export function filesNamedBy(config: ServiceConfig, skipAuthenticator: (name: string) => boolean): NamedFile[] {
  const files: NamedFile[] = [];
  const add = (keyPath: Array<string | number>, file: string | undefined, kind: FileKind): void => {
    if (file !== undefined) {
      files.push({ keyPath, file, kind });
    }
  };
  add(['tenantConfig'], config.tenantConfig, 'readable');
  add(['auth', 'keyEncryptionKeyFile'], config.auth.keyEncryptionKeyFile, 'key-encryption-secret');
  config.auth.authenticators.forEach((a, index) => {
    if (skipAuthenticator(a.name)) {
      return;
    }
    const at = (key: string) => ['auth', 'authenticators', index, key];
    if (a.driver === 'HS256') {
      add(at('secretFile'), a.secretFile, 'secret');
    } else if (a.driver === 'RS256' || a.driver === 'ES256') {
      add(at('publicKeyFile'), a.publicKeyFile, a.driver === 'RS256' ? 'rsa-public-key' : 'ec-public-key');
      add(at('jwksFile'), a.jwksFile, 'jwks');
    } else {
      add(at('jwksFile'), a.jwksFile, 'jwks');
    }
  });
  for (const [name, conn] of Object.entries(config.connections)) {
    const at = (key: string) => ['connections', name, key];
    for (const named of driverOf(conn)?.connection?.files?.(conn) ?? []) {
      add(at(named.key), named.file, named.kind);
    }
    if (conn.driver === 'static') {
      add(at('sshKeyFile'), conn.sshKeyFile, 'ssh-key');
    }
  }
  return files;
}

const READ_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'is a directory, not a file',
};

/** What is wrong with a named file, in words; undefined when it holds what its key says. */
export function fileProblem(named: NamedFile): string | undefined {
  let text: string;
  try {
    text = readFileSync(named.file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    return `cannot read ${named.file}: ${READ_ERRORS[code] ?? code}`;
  }
  if (named.kind === 'readable') {
    return undefined;
  }
  if (text.trim() === '') {
    return `${named.file} is empty`;
  }
  switch (named.kind) {
    case 'rsa-private-key':
      return keyProblem(named.file, 'an RSA private key in PEM', 'rsa', () => createPrivateKey(text));
    case 'rsa-public-key':
      return keyProblem(named.file, 'an RSA public key in PEM', 'rsa', () => createPublicKey(text));
    case 'ec-public-key':
      return keyProblem(named.file, 'an EC public key in PEM', 'ec', () => createPublicKey(text));
    case 'jwks':
      return jwksProblem(named.file, text);
    case 'ssh-key':
      return /^-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text.trim())
        ? undefined
        : `${named.file} does not hold a private key (no "-----BEGIN ... PRIVATE KEY-----" line)`;
    case 'key-encryption-secret':
      // As auth.keyEncryptionKey (src/auth/keys/key-encryption.ts reads it trimmed).
      return text.trim().length < 16 ? `${named.file} holds fewer than 16 characters` : undefined;
    case 'secret':
      return undefined;
  }
}

function keyProblem(file: string, what: string, type: string, parse: () => KeyObject): string | undefined {
  let key: KeyObject;
  try {
    key = parse();
  } catch {
    return `${file} does not hold ${what}`;
  }
  return key.asymmetricKeyType === type
    ? undefined
    : `${file} holds a key of type ${key.asymmetricKeyType}, not ${what}`;
}

function jwksProblem(file: string, text: string): string | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return `${file} is not JSON (a JWKS document: {"keys": [...]})`;
  }
  const keys = (doc as { keys?: unknown } | null)?.keys;
  return Array.isArray(keys) ? undefined : `${file} is not a JWKS document (no "keys" list)`;
}
