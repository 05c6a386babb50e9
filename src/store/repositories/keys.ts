/**
 * Key material (project secrets keys, project and tenant SSH keys). Private parts arrive here
 * already encrypted; this repository never sees a plaintext private key.
 */
import type { Knex } from 'knex';
import { pickFields } from '../row-fields';

export type KeyKind = 'secrets' | 'project-ssh' | 'tenant-ssh';

export interface StoredKey {
  kind: KeyKind;
  /** Project canonical name (secrets, project-ssh) or tenant name (tenant-ssh). */
  owner: string;
  /** The public key exactly as served (PEM, or an OpenSSH line). */
  publicKey: string;
  /** The private key, encrypted at rest by the auth layer. */
  privateKeyEncrypted: string;
  created: Date;
}

export type NewKey = Omit<StoredKey, 'created'>;

interface KeyRow {
  kind: KeyKind;
  owner: string;
  public_key: string;
  private_key_encrypted: string;
  created: Date;
}

export class KeyRepository {
  constructor(private readonly knex: Knex) {}

  /** The key of this kind and owner, if one was stored. */
  async get(kind: KeyKind, owner: string): Promise<StoredKey | undefined> {
    const row = await this.knex<KeyRow>('keys')
      .where({ kind, owner })
      .first('kind', 'owner', 'public_key', 'private_key_encrypted', 'created');
    return row === undefined ? undefined : toStoredKey(row);
  }

  /**
   * Store `key` unless a key of the same kind and owner exists, and return whichever is stored.
   * Concurrent callers (other processes included) all get the first key written.
   */
  async insertIfAbsent(key: NewKey): Promise<StoredKey> {
    await this.knex<KeyRow>('keys')
      .insert({
        kind: key.kind,
        owner: key.owner,
        public_key: key.publicKey,
        private_key_encrypted: key.privateKeyEncrypted,
      })
      .onConflict(['kind', 'owner'])
      .ignore();
    const stored = await this.get(key.kind, key.owner);
    if (stored === undefined) {
      throw new Error(`key ${key.kind} for ${key.owner} vanished after insert`);
    }
    return stored;
  }

  /** Owners that have a key of this kind (for operators' listings; no key material). */
  async owners(kind: KeyKind): Promise<string[]> {
    const rows = await this.knex<KeyRow>('keys').where({ kind }).orderBy('owner').select('owner');
    return rows.map((row) => row.owner);
  }
}

function toStoredKey(row: KeyRow): StoredKey {
  return pickFields(row, ['kind', 'owner', 'publicKey', 'privateKeyEncrypted', 'created']);
}
