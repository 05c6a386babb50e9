/**
 * `sluice delete-oidc-signing-keys` through the command line's dispatcher (src/server/cli.ts) on
 * the store the configuration names: the embedded store of its data directory, or a fresh
 * PostgreSQL database with DATABASE_URL (docs/security.md#oidc-tokens).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KeyEncryptor } from '../../../src/auth/keys/key-encryption';
import { OidcSigningKeys } from '../../../src/auth/keys/oidc-signing-keys';
import { openDatabase, type Database } from '../../../src/store/database';
import { migrateLatest } from '../../../src/store/migrate';
import { OidcSigningKeyRepository } from '../../../src/store/repositories/oidc-signing-keys';
import { runCli as sluice, useCliDatabase } from '../../helpers/cli-run';

const KEY_ENCRYPTION_KEY = 'oidc-cli-key-encryption-secret';

// PGlite and RSA keys on a loaded machine.
jest.setTimeout(120_000);

const cliDatabase = useCliDatabase();
let dir: string;
let configFile: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-oidc-cli-'));
  configFile = path.join(dir, 'sluice.yaml');
  writeFileSync(configFile, `dataDir: data\nauth:\n  keyEncryptionKey: ${KEY_ENCRYPTION_KEY}\n`);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Run `work` on the store the command opens, closed afterwards (the embedded one takes one process). */
async function withStore<T>(work: (database: Database) => Promise<T>): Promise<T> {
  const url = cliDatabase.url();
  const database =
    url !== undefined
      ? openDatabase({ kind: 'postgres', url })
      : openDatabase({ kind: 'pglite', dataDir: path.join(dir, 'data', 'pgdata') });
  try {
    await migrateLatest(database.knex);
    return await work(database);
  } finally {
    await database.close();
  }
}

describe('sluice delete-oidc-signing-keys', () => {
  it('deletes the stored keys of the algorithm', async () => {
    const encryptor = await KeyEncryptor.fromSecret(KEY_ENCRYPTION_KEY);
    await withStore(async (database) => {
      const keys = new OidcSigningKeys({ repository: new OidcSigningKeyRepository(database.knex), encryptor });
      await keys.latest('RS256');
    });
    const deleted = await sluice(['delete-oidc-signing-keys', 'RS256', '-c', configFile]);
    expect(deleted).toEqual({ code: 0, stdout: 'Deleted 1 OIDC signing key(s) of RS256\n', stderr: '' });
    expect(await withStore((database) => new OidcSigningKeyRepository(database.knex).list('RS256'))).toEqual([]);
  });

  it('answers --help and refuses a missing or unknown algorithm with a usage error', async () => {
    const help = await sluice(['delete-oidc-signing-keys', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: sluice delete-oidc-signing-keys ALGORITHM');
    const unknown = await sluice(['delete-oidc-signing-keys', 'HS256', '-c', configFile]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unsupported algorithm "HS256" (supported: RS256)');
    expect((await sluice(['delete-oidc-signing-keys', '-c', configFile])).code).toBe(2);
    expect((await sluice(['--help'])).stdout).toContain('delete-oidc-signing-keys ALGORITHM');
  });
});
