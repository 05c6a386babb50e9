/**
 * Key pairs on demand: a project's RSA secrets key (4096 bits, docs/security.md#keys), a project SSH
 * key (RSA 2048, docs/security.md#keys) and a tenant SSH key (RSA 2048,
 * docs/rest.md#deliberate-differences-from-the-reference). Created on first need, stored with the private part
 * encrypted, cached in memory, and safe to request from several processes at once (the first key written wins).
 */
import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import type { KeyKind, KeyRepository, StoredKey } from '../../store/repositories/keys';
import type { KeyEncryptor } from './key-encryption';
import { opensshPublicKey, pemPublicKey } from './formats';
import type { OidcSigningKeyRepository } from '../../store/repositories/oidc-signing-keys';
import { OidcSigningKeys } from './oidc-signing-keys';

/** RSA modulus sizes in bits; tests inject smaller ones because 4096-bit generation is slow. */
export interface KeySizes {
  secrets: number;
  projectSsh: number;
  tenantSsh: number;
}

export const DEFAULT_KEY_SIZES: Readonly<KeySizes> = { secrets: 4096, projectSsh: 2048, tenantSsh: 2048 };

/** A key pair. The private key is reachable only through `privateKey()`, never serialised. */
export class KeyPair {
  readonly #privateKey: KeyObject;

  constructor(
    readonly kind: KeyKind,
    readonly owner: string,
    /** The public key exactly as served: PEM (secrets) or an OpenSSH line (SSH keys). */
    readonly publicKeyText: string,
    readonly created: Date,
    privateKey: KeyObject,
  ) {
    this.#privateKey = privateKey;
  }

  privateKey(): KeyObject {
    return this.#privateKey;
  }

  publicKey(): KeyObject {
    return createPublicKey(this.#privateKey);
  }

  /** The private key as traditional PEM (`BEGIN RSA PRIVATE KEY`), which ssh and ssh-add accept. */
  privateKeyPem(): string {
    return this.#privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  }

  /** Logs and JSON see the public part only. */
  toJSON(): { kind: KeyKind; owner: string; publicKey: string; created: string } {
    return { kind: this.kind, owner: this.owner, publicKey: this.publicKeyText, created: this.created.toISOString() };
  }
}

export interface KeyManagerOptions {
  repository: KeyRepository;
  encryptor: KeyEncryptor;
  sizes?: Partial<KeySizes>;
  /** Where the OIDC signing keys live (absent: this manager has none). */
  oidcRepository?: OidcSigningKeyRepository;
  /** The wall clock of the OIDC signing keys' ages. */
  now?: () => Date;
}

export class KeyManager {
  private readonly cache = new Map<string, Promise<KeyPair>>();
  private readonly sizes: KeySizes;
  /** The OIDC signing keys (docs/security.md#oidc-tokens), encrypted with the same secret. */
  readonly oidc: OidcSigningKeys | undefined;

  constructor(private readonly options: KeyManagerOptions) {
    this.sizes = { ...DEFAULT_KEY_SIZES, ...options.sizes };
    this.oidc =
      options.oidcRepository === undefined
        ? undefined
        : new OidcSigningKeys({ repository: options.oidcRepository, encryptor: options.encryptor, now: options.now });
  }

  /** The project's secrets key (`owner` = project canonical name). */
  secretsKey(project: string): Promise<KeyPair> {
    return this.keyPair('secrets', project);
  }

  /** The project's secrets key if one is stored; never creates one (read-only commands). */
  async storedSecretsKey(project: string): Promise<KeyPair | undefined> {
    const stored = await this.options.repository.get('secrets', project);
    return stored === undefined ? undefined : this.open(stored);
  }

  /** The project's SSH key. */
  projectSshKey(project: string): Promise<KeyPair> {
    return this.keyPair('project-ssh', project);
  }

  /** The tenant's SSH key. */
  tenantSshKey(tenant: string): Promise<KeyPair> {
    return this.keyPair('tenant-ssh', tenant);
  }

  private keyPair(kind: KeyKind, owner: string): Promise<KeyPair> {
    const cacheKey = `${kind}\u0000${owner}`;
    let pending = this.cache.get(cacheKey);
    if (pending === undefined) {
      pending = this.load(kind, owner);
      this.cache.set(cacheKey, pending);
      // A failure (database down) must not stick: the next call retries.
      pending.catch(() => this.cache.delete(cacheKey));
    }
    return pending;
  }

  private async load(kind: KeyKind, owner: string): Promise<KeyPair> {
    const { repository } = this.options;
    const stored = (await repository.get(kind, owner)) ?? (await this.create(kind, owner));
    return this.open(stored);
  }

  private async create(kind: KeyKind, owner: string): Promise<StoredKey> {
    const privateKey = await generateRsaPrivateKey(this.sizeOf(kind));
    const publicKey = createPublicKey(privateKey);
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    return this.options.repository.insertIfAbsent({
      kind,
      owner,
      publicKey: kind === 'secrets' ? pemPublicKey(publicKey) : opensshPublicKey(publicKey),
      privateKeyEncrypted: this.options.encryptor.encrypt(pem, encryptionContext(kind, owner)),
    });
  }

  private open(stored: StoredKey): KeyPair {
    const pem = this.options.encryptor.decrypt(
      stored.privateKeyEncrypted,
      encryptionContext(stored.kind, stored.owner),
    );
    return new KeyPair(stored.kind, stored.owner, stored.publicKey, stored.created, createPrivateKey(pem));
  }

  private sizeOf(kind: KeyKind): number {
    switch (kind) {
      case 'secrets':
        return this.sizes.secrets;
      case 'project-ssh':
        return this.sizes.projectSsh;
      case 'tenant-ssh':
        return this.sizes.tenantSsh;
    }
  }
}

function encryptionContext(kind: KeyKind, owner: string): string {
  return `${kind}:${owner}`;
}

/** RSA key generation off the main thread (libuv pool): 4096 bits takes seconds. */
function generateRsaPrivateKey(bits: number): Promise<KeyObject> {
  return new Promise((resolve, reject) => {
    generateKeyPair('rsa', { modulusLength: bits, publicExponent: 0x10001 }, (err, _publicKey, privateKey) =>
      err ? reject(err) : resolve(privateKey),
    );
  });
}
