/**
 * Decrypting secrets at layout load (docs/security.md#secrets): every encrypted value of a
 * `secret` must decrypt with the private key of the project that defines it, else the secret
 * is dropped with a configuration error. The error names the secret, the value's path and the
 * chunk, never the ciphertext or the plaintext. Keys are loaded before the (synchronous)
 * layout build, only for projects whose files hold encrypted values, and before a pass for the
 * projects whose proposed files do.
 */
import type { KeyObject } from 'node:crypto';
import { decryptSecretData, hasEncryptedData, SecretDataError, type SecretsKeySource } from '../secrets/secret-data';
import { ConfigObjectError, ErrorName } from './config-error';
import type { Secret } from './layout';

/** Project canonical name -> its private secrets key, or why it could not be loaded. */
export type SecretKeys = ReadonlyMap<string, KeyObject | Error>;

/** The tag that marks encrypted values; a file without it needs no key. */
const ENCRYPTED_TAG = '!encrypted/';

/** Whether configuration files hold an encrypted value. */
const holdsEncrypted = (files: ReadonlyArray<{ text: string }>): boolean =>
  files.some((file) => file.text.includes(ENCRYPTED_TAG));

/** Load the secrets keys of the projects whose configuration files contain encrypted values. */
export async function loadSecretKeys(
  projects: ReadonlyArray<{ canonicalName: string; files: ReadonlyMap<string, ReadonlyArray<{ text: string }>> }>,
  source: SecretsKeySource,
): Promise<SecretKeys> {
  const keys = new Map<string, KeyObject | Error>();
  for (const project of projects) {
    if ([...project.files.values()].some(holdsEncrypted)) {
      await addKey(keys, project.canonicalName, source);
    }
  }
  return keys;
}

/**
 * Add to `keys` (a layout's, which its speculative layouts read) the keys of the projects whose
 * proposed files hold encrypted values and whose key is not there: a proposal adding a project's
 * first secret (docs/gating.md#speculative-layouts). Asked before the pass that builds the layout.
 */
export async function addProposalSecretKeys(
  keys: Map<string, KeyObject | Error>,
  proposed: ReadonlyArray<{ project: string; files: ReadonlyArray<{ text: string }> }>,
  source: SecretsKeySource,
): Promise<void> {
  for (const entry of proposed) {
    if (holdsEncrypted(entry.files)) {
      await addKey(keys, entry.project, source);
    }
  }
}

async function addKey(keys: Map<string, KeyObject | Error>, project: string, source: SecretsKeySource): Promise<void> {
  if (keys.has(project)) {
    return;
  }
  try {
    keys.set(project, (await source.secretsKey(project)).privateKey());
  } catch (err) {
    keys.set(project, err instanceof Error ? err : new Error(String(err)));
  }
}

/**
 * Decrypt a secret's data with its project's key.
 * @returns the decrypted data (undefined for OIDC secrets)
 * @throws ConfigObjectError when a value does not decrypt or the key is missing
 */
export function checkSecretDecrypts(secret: Secret, keys: SecretKeys): unknown {
  if (secret.data === undefined || !hasEncryptedData(secret.data)) {
    return secret.data;
  }
  const project = secret.sourceContext.projectName;
  const key = keys.get(secret.sourceContext.projectCanonicalName);
  if (key === undefined || key instanceof Error) {
    const why = key instanceof Error ? ` (${key.message})` : '';
    throw new ConfigObjectError(
      `Unable to decrypt secret ${secret.name}: the secrets key of project ${project} is not available${why}.`,
      ErrorName.unknown,
      'data',
    );
  }
  try {
    return decryptSecretData(secret.data, key);
  } catch (err) {
    if (err instanceof SecretDataError) {
      throw new ConfigObjectError(
        `Unable to decrypt secret ${secret.name}: ${err.message} of project ${project}. Encrypt values with this project's public key (the tenant's key/<project>.pub endpoint or \`sluice encrypt\`).`,
        ErrorName.unknown,
        'data',
      );
    }
    throw err;
  }
}
