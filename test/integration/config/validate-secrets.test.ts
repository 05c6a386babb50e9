/**
 * `sluice validate-config --decrypt-secrets` (docs/security.md#what-is-enforced): every secret
 * must decrypt with its project's key as stored in the database; each one that does not is one
 * error line and the command exits 1. It creates neither keys nor the key-encryption secret nor
 * the database, and names what is missing.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../../src/store/database';
import { migrateLatest } from '../../../src/store/migrate';
import { KeyRepository } from '../../../src/store/repositories/keys';
import { KeyEncryptor } from '../../../src/auth/keys/key-encryption';
import { KeyManager } from '../../../src/auth/keys/key-manager';
import { encryptSecret } from '../../../src/secrets/encryption';
import { buildFixtureRepos, type FixtureRepos } from '../../helpers/config-fixtures';
import { runCli as sluice, useCliDatabase } from '../../helpers/cli-run';
import { testDatabasePrefix } from '../../helpers/database';

const KEY_ENCRYPTION_KEY = 'validate-secrets-key-encryption';
const HOST = 'review.example.com';

// RSA keys, git and PGlite on a loaded machine.
jest.setTimeout(120_000);

let dir: string;
let repos: FixtureRepos;
const cliDatabase = useCliDatabase();

function openStore(dataDir: string): Database {
  const url = cliDatabase.url();
  return url !== undefined
    ? openDatabase({ kind: 'postgres', url })
    : openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') });
}

function encrypted(value: string, key: KeyObject): string {
  return `!encrypted/pkcs1-oaep\n${encryptSecret(value, key)
    .map((chunk) => `        - ${chunk}\n`)
    .join('')}`;
}

const secret = (name: string, value: string, key: KeyObject) =>
  `- secret:\n    name: ${name}\n    data:\n      password: ${encrypted(value, key)}`;

function writeConfig(file: string, tenantFile: string, dataDir: string, withKey = true): string {
  writeFileSync(
    file,
    [
      `dataDir: ${dataDir}`,
      `tenantConfig: ${tenantFile}`,
      ...(withKey ? ['auth:', `  keyEncryptionKey: ${KEY_ENCRYPTION_KEY}`] : []),
      'connections:',
      '  gerrit:',
      '    driver: git',
      `    baseurl: ${repos.baseDir}`,
      `    canonicalHostname: ${HOST}`,
      '',
    ].join('\n'),
  );
  return file;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-validate-secrets-'));
  // The projects' keys as the service stores them: org/app and org/bad have one, org/new none.
  const store = openStore(path.join(dir, 'data'));
  const keys = new Map<string, KeyObject>();
  try {
    await migrateLatest(store.knex);
    const manager = new KeyManager({
      repository: new KeyRepository(store.knex),
      encryptor: await KeyEncryptor.fromSecret(KEY_ENCRYPTION_KEY),
      sizes: { secrets: 1024 },
    });
    for (const project of ['org/app', 'org/bad']) {
      keys.set(project, (await manager.secretsKey(`${HOST}/${project}`)).publicKey());
    }
  } finally {
    await store.close();
  }
  const unknownKey = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
  const fixture = path.join(dir, 'fixture');
  const files: Record<string, string> = {
    'config/zuul.yaml':
      '- pipeline: {name: check, manager: independent, trigger: {}}\n- job: {name: base, parent: null, run: base.sh}\n',
    'org/app/zuul.yaml': `${secret('deploy', 'app-password', keys.get('org/app') as KeyObject)}- job: {name: app-deploy, run: deploy.sh, secrets: [{name: creds, secret: deploy}]}\n`,
    // Encrypted with org/app's key: it does not decrypt with org/bad's.
    'org/bad/zuul.yaml': secret('stolen', 'app-password', keys.get('org/app') as KeyObject),
    'org/new/zuul.yaml': secret('fresh', 'new-password', unknownKey),
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(fixture, 'repos', file)), { recursive: true });
    writeFileSync(path.join(fixture, 'repos', file), text);
  }
  repos = await buildFixtureRepos(fixture);
  const tenant = (name: string, projects: string[]) =>
    `- tenant:\n    name: ${name}\n    source:\n      gerrit:\n        config-projects: [config]\n        untrusted-projects: [${projects.join(', ')}]\n`;
  writeFileSync(path.join(dir, 'good.yaml'), tenant('good', ['org/app']));
  writeFileSync(
    path.join(dir, 'all.yaml'),
    `${tenant('good', ['org/app'])}${tenant('broken', ['org/app', 'org/bad', 'org/new'])}`,
  );
});

afterAll(async () => {
  repos?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe('sluice validate-config --decrypt-secrets', () => {
  it('passes when every secret decrypts with its project key', async () => {
    const config = writeConfig(path.join(dir, 'good-sluice.yaml'), path.join(dir, 'good.yaml'), path.join(dir, 'data'));
    const result = await sluice(['validate-config', '--decrypt-secrets', '--config', config]);
    expect(result.stdout).toContain('tenant good: 2 project(s), 1 pipeline(s), 3 job(s), 0 error(s), 0 warning(s)');
    expect(result.code).toBe(0);
  });

  it('prints one error line per secret that does not decrypt and exits 1', async () => {
    const config = writeConfig(path.join(dir, 'all-sluice.yaml'), path.join(dir, 'all.yaml'), path.join(dir, 'data'));
    const result = await sluice(['validate-config', '--decrypt-secrets', '--config', config]);
    const errors = result.stdout.split('\n').filter((line) => line.startsWith('error: '));
    expect(errors).toEqual([
      expect.stringMatching(
        /^error: \[Unknown\] org\/bad@master zuul\.yaml:3: Unable to decrypt secret stolen: chunk 1 of data\.password could not be decrypted with the project key of project org\/bad\. /,
      ),
      `error: [Unknown] org/new@master zuul.yaml:3: Unable to decrypt secret fresh: the secrets key of project org/new is not available (no secrets key is stored for ${HOST}/org/new).`,
    ]);
    expect(result.stdout).not.toContain('app-password');
    expect(result.stdout).toMatch(/\n2 error\(s\), 0 warning\(s\)\n$/);
    expect(result.code).toBe(1);
    // Nothing was created for the project without a key.
    const store = openStore(path.join(dir, 'data'));
    try {
      expect(await new KeyRepository(store.knex).get('secrets', `${HOST}/org/new`)).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('does not decrypt without the option', async () => {
    const config = writeConfig(path.join(dir, 'all-sluice.yaml'), path.join(dir, 'all.yaml'), path.join(dir, 'data'));
    const result = await sluice(['validate-config', '--config', config]);
    expect(result.stdout).toContain('0 error(s), 0 warning(s)\n');
    expect(result.code).toBe(0);
  });

  it('reports a missing key-encryption secret without creating one', async () => {
    const dataDir = path.join(dir, 'fresh-data');
    const config = writeConfig(path.join(dir, 'fresh-sluice.yaml'), path.join(dir, 'good.yaml'), dataDir, false);
    const result = await sluice(['validate-config', '--decrypt-secrets', '--config', config]);
    expect(result.stdout).toContain(
      'Unable to decrypt secret deploy: the secrets key of project org/app is not available (no key-encryption secret is configured or stored in the data directory).',
    );
    expect(result.code).toBe(1);
    expect(existsSync(path.join(dataDir, 'key-encryption.key'))).toBe(false);
  });

  it('names a database that does not exist, creating none', async () => {
    const dataDir = path.join(dir, 'no-store');
    const config = writeConfig(path.join(dir, 'no-store-sluice.yaml'), path.join(dir, 'good.yaml'), dataDir);
    const url = cliDatabase.url();
    const name = `${testDatabasePrefix()}missing_${process.pid}`;
    const missingUrl = url === undefined ? undefined : Object.assign(new URL(url), { pathname: `/${name}` }).toString();
    const saved = process.env.DATABASE_URL;
    if (missingUrl !== undefined) {
      process.env.DATABASE_URL = missingUrl;
    }
    let result;
    try {
      result = await sluice(['validate-config', '--decrypt-secrets', '--config', config]);
    } finally {
      if (missingUrl !== undefined) {
        process.env.DATABASE_URL = saved;
      }
    }
    const missing =
      url === undefined
        ? `the embedded database ${dataDir}/pgdata does not exist`
        : `database "${name}" does not exist on ${new URL(url).hostname}:${new URL(url).port || '5432'}`;
    expect(result.stdout).toContain(
      `Unable to decrypt secret deploy: the secrets key of project org/app is not available (${missing}, so it stores no key; sluice migrate creates it, sluice encrypt a project's key).`,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    if (url === undefined) {
      expect(existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
    } else {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        expect((await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount).toBe(0);
      } finally {
        await client.end();
      }
    }
  });

  it('is refused with another command', async () => {
    const result = await sluice(['migrate', '--decrypt-secrets']);
    expect(result.stderr).toContain('--decrypt-secrets applies to validate-config only');
    expect(result.code).toBe(2);
  });
});
