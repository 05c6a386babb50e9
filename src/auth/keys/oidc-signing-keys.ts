/**
 * The keys Sluice signs OIDC tokens with (docs/security.md#oidc-tokens): per algorithm, versions
 * 0, 1, ...; the newest signs, every stored one is published in the JWKS. The first is created
 * on first need; `rotate` (the scheduler's periodic task) adds the next version once the newest
 * is older than the rotation interval and deletes the versions no valid token can carry any more.
 * Private parts are stored encrypted like the project keys (docs/security.md#keys).
 */
import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { exportJWK, type JWK } from 'jose';
import type { OidcSigningKeyRepository, StoredSigningKey } from '../../store/repositories/oidc-signing-keys';
import type { KeyEncryptor } from './key-encryption';

/** The signing algorithms Sluice can use (`oidc.supportedSigningAlgorithms`). */
export const OIDC_SIGNING_ALGORITHMS = ['RS256'] as const;

const RSA_BITS = 2048;

/** The key that signs new tokens. */
export interface SigningKey {
  algorithm: string;
  version: number;
  /** The `kid` of the tokens it signs and of its JWK: `<algorithm>-<version>`. */
  kid: string;
  privateKey: KeyObject;
}

export interface RotationResult {
  /** The version added, if one was. */
  created?: number;
  /** How many old versions were deleted. */
  deleted: number;
}

export class UnsupportedSigningAlgorithmError extends Error {
  constructor(algorithm: string) {
    super(
      `the OIDC signing algorithm "${algorithm}" is not supported (supported: ${OIDC_SIGNING_ALGORITHMS.join(', ')})`,
    );
    this.name = 'UnsupportedSigningAlgorithmError';
  }
}

export interface OidcSigningKeysOptions {
  repository: OidcSigningKeyRepository;
  encryptor: KeyEncryptor;
  /** The wall clock (key ages); tests inject one. */
  now?: () => Date;
}

export function signingKeyId(algorithm: string, version: number): string {
  return `${algorithm}-${version}`;
}

export class OidcSigningKeys {
  private readonly now: () => Date;

  constructor(private readonly options: OidcSigningKeysOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** The newest key of the algorithm, created (version 0) when there is none. */
  async latest(algorithm: string): Promise<SigningKey> {
    checkAlgorithm(algorithm);
    let keys = await this.options.repository.list(algorithm);
    if (keys.length === 0) {
      keys = await this.options.repository.exclusively(async (repository) => {
        const stored = await repository.list(algorithm);
        if (stored.length === 0) {
          await repository.insertIfAbsent(await this.generate(algorithm, 0));
        }
        return repository.list(algorithm);
      });
    }
    const newest = keys[keys.length - 1];
    const pem = this.options.encryptor.decrypt(
      newest.privateKeyEncrypted,
      encryptionContext(algorithm, newest.version),
    );
    return {
      algorithm,
      version: newest.version,
      kid: signingKeyId(algorithm, newest.version),
      privateKey: createPrivateKey(pem),
    };
  }

  /** The public keys of every stored version of the algorithms, as a JWK set. */
  async jwks(algorithms: readonly string[]): Promise<{ keys: JWK[] }> {
    const keys: JWK[] = [];
    for (const algorithm of algorithms) {
      for (const stored of await this.options.repository.list(algorithm)) {
        const jwk = await exportJWK(createPublicKey(stored.publicKey));
        keys.push({ ...jwk, alg: algorithm, use: 'sig', kid: signingKeyId(algorithm, stored.version) });
      }
    }
    return { keys };
  }

  /**
   * Rotate the algorithm's keys: create version 0 when there is none; delete the versions older
   * than the newest one created more than `maxTtlSeconds` ago (no token they signed is still
   * valid); add the next version when the newest is older than `intervalSeconds`.
   */
  async rotate(algorithm: string, intervalSeconds: number, maxTtlSeconds: number): Promise<RotationResult> {
    checkAlgorithm(algorithm);
    return this.options.repository.exclusively(async (repository) => {
      const keys = await repository.list(algorithm);
      if (keys.length === 0) {
        await repository.insertIfAbsent(await this.generate(algorithm, 0));
        return { created: 0, deleted: 0 };
      }
      const nowMs = this.now().getTime();
      const expiredBefore = nowMs - maxTtlSeconds * 1000;
      const oldestKept = [...keys].reverse().find((key) => key.created.getTime() < expiredBefore);
      const deleted = oldestKept === undefined ? 0 : await repository.deleteBelow(algorithm, oldestKept.version);
      const newest = keys[keys.length - 1];
      if (nowMs - newest.created.getTime() <= intervalSeconds * 1000) {
        return { deleted };
      }
      const version = newest.version + 1;
      await repository.insertIfAbsent(await this.generate(algorithm, version));
      return { created: version, deleted };
    });
  }

  private async generate(algorithm: string, version: number): Promise<StoredSigningKey> {
    const privateKey = await generateRsaKey();
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    return {
      algorithm,
      version,
      publicKey: createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString(),
      privateKeyEncrypted: this.options.encryptor.encrypt(pem, encryptionContext(algorithm, version)),
      created: this.now(),
    };
  }
}

function checkAlgorithm(algorithm: string): void {
  if (!(OIDC_SIGNING_ALGORITHMS as readonly string[]).includes(algorithm)) {
    throw new UnsupportedSigningAlgorithmError(algorithm);
  }
}

function encryptionContext(algorithm: string, version: number): string {
  return `oidc-signing:${signingKeyId(algorithm, version)}`;
}

function generateRsaKey(): Promise<KeyObject> {
  return new Promise((resolve, reject) => {
    generateKeyPair('rsa', { modulusLength: RSA_BITS, publicExponent: 0x10001 }, (err, _publicKey, privateKey) =>
      err ? reject(err) : resolve(privateKey),
    );
  });
}
