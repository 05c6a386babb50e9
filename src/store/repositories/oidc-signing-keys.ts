/**
 * The OIDC signing keys (docs/security.md#oidc-tokens): one row per algorithm and version. Private
 * parts arrive here already encrypted.
 */
import type { Knex } from 'knex';

export interface StoredSigningKey {
  algorithm: string;
  version: number;
  /** The public key as PEM (SPKI). */
  publicKey: string;
  /** The private key, encrypted at rest by the auth layer. */
  privateKeyEncrypted: string;
  created: Date;
}

interface SigningKeyRow {
  algorithm: string;
  version: number;
  public_key: string;
  private_key_encrypted: string;
  created: Date;
}

const TABLE = 'oidc_signing_keys';

/** Any fixed key: one rotation of the signing keys at a time, across processes. */
const ROTATION_LOCK = 7_112_004_031;

export class OidcSigningKeyRepository {
  constructor(private readonly knex: Knex | Knex.Transaction) {}

  /** The algorithm's keys, oldest version first. */
  async list(algorithm: string): Promise<StoredSigningKey[]> {
    const rows = await this.knex<SigningKeyRow>(TABLE).where({ algorithm }).orderBy('version');
    return rows.map(toStored);
  }

  /** Store `key` unless its version exists (another process was first); true when stored. */
  async insertIfAbsent(key: StoredSigningKey): Promise<boolean> {
    const inserted = await this.knex<SigningKeyRow>(TABLE)
      .insert({
        algorithm: key.algorithm,
        version: key.version,
        public_key: key.publicKey,
        private_key_encrypted: key.privateKeyEncrypted,
        created: key.created,
      })
      .onConflict(['algorithm', 'version'])
      .ignore()
      .returning('version');
    return inserted.length > 0;
  }

  /** Delete the algorithm's versions below `version`; returns how many went. */
  async deleteBelow(algorithm: string, version: number): Promise<number> {
    const deleted = await this.knex(TABLE)
      .where({ algorithm })
      .andWhere('version', '<', version)
      .delete()
      .returning('version');
    return deleted.length;
  }

  /** Delete every key of the algorithm; returns how many went. */
  async deleteAlgorithm(algorithm: string): Promise<number> {
    const deleted = await this.knex(TABLE).where({ algorithm }).delete().returning('version');
    return deleted.length;
  }

  /** Run `work` with the rotation lock held (one rotation at a time across processes). */
  async exclusively<T>(work: (repository: OidcSigningKeyRepository) => Promise<T>): Promise<T> {
    return this.knex.transaction(async (trx) => {
      await trx.raw('SELECT pg_advisory_xact_lock(?)', [ROTATION_LOCK]);
      return work(new OidcSigningKeyRepository(trx));
    });
  }
}

function toStored(row: SigningKeyRow): StoredSigningKey {
  return {
    algorithm: row.algorithm,
    version: row.version,
    publicKey: row.public_key,
    privateKeyEncrypted: row.private_key_encrypted,
    created: row.created,
  };
}
