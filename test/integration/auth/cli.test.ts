import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { parse } from 'yaml';
import { loadServiceConfig } from '../../../src/config/service';
import { encryptCommand, tokenCommand, type AuthCommandDeps } from '../../../src/auth/cli-commands';
import { createTokenAuthenticator } from '../../../src/auth/authenticator';
import { KeyEncryptor, resolveKeyEncryptionSecret } from '../../../src/auth/keys/key-encryption';
import { KeyManager } from '../../../src/auth/keys/key-manager';
import { decryptSecret } from '../../../src/secrets/encryption';
import { openDatabase } from '../../../src/store/database';
import { migrateLatest } from '../../../src/store/migrate';
import { KeyRepository } from '../../../src/store/repositories/keys';
import { createTestDatabase, testDatabasePrefix, type TestDatabase } from '../../helpers/database';
import { describeIf, POSTGRES } from '../../helpers/preconditions';
import { temporaryDirectory } from '../../helpers/temporary-directory';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../..');
const dir = temporaryDirectory('sluice-cli-');
const configFile = path.join(dir, 'sluice.yaml');
writeFileSync(
  path.join(dir, 'main.yaml'),
  `- tenant:
    name: tenant-one
    source:
      local:
        config-projects:
          - sluice-config
        untrusted-projects:
          - org/project: { include: [] }
          - projects: [org/grouped]
`,
);
writeFileSync(
  configFile,
  `dataDir: data
tenantConfig: main.yaml
connections:
  local:
    driver: git
    baseurl: repos
    canonicalHostname: git.example.com
auth:
  keyEncryptionKey: cli-test-key-encryption-secret
  authenticators:
    - name: zuul_operator
      driver: HS256
      realm: zuul.example.com
      issuer: zuul_operator
      clientId: zuul.example.com
      secret: NoDanaOnlyZuul
      allowAuthzOverride: true
    - name: no_override
      driver: HS256
      issuer: other
      clientId: other
      secret: x
`,
);

interface Captured {
  stdout: string;
  stderr: string;
}

function deps(
  database: TestDatabase,
  stdin = '',
  captured: Captured = { stdout: '', stderr: '' },
): AuthCommandDeps & { captured: Captured } {
  return {
    captured,
    io: {
      stdout: { write: (t: string) => (captured.stdout += t) },
      stderr: { write: (t: string) => (captured.stderr += t) },
      readStdin: () => Promise.resolve(stdin),
    },
    loadConfig: (file) => loadServiceConfig(file ?? configFile),
    // The command closes the database it is given; keep the test's open.
    openDatabase: () => ({ ...database, close: () => Promise.resolve() }),
    now: () => new Date('2026-11-22T12:00:00Z'),
    keySizes: { secrets: 2048 },
  };
}

describe('sluice token create', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.destroy();
  });

  it('mints a Bearer admin token with the reference claim layout that the server accepts', async () => {
    const d = deps(database);
    expect(await tokenCommand(['create', '--tenant', 'tenant-one', '--sub', 'alice', '--ttl', '60'], d)).toBe(0);
    expect(d.captured.stdout).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+\n$/);
    const token = d.captured.stdout.trim().slice('Bearer '.length);
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toEqual({
      iat: 1795348800,
      exp: 1795348860,
      iss: 'zuul_operator',
      aud: 'zuul.example.com',
      sub: 'alice',
      zuul: { admin: ['tenant-one'] },
    });
    const auth = await createTokenAuthenticator(loadServiceConfig(configFile).auth, {
      now: () => new Date('2026-11-22T12:00:30Z'),
    });
    const outcome = await auth.authenticateHeader(d.captured.stdout.trim());
    expect(outcome.ok && outcome.principal.subject).toBe('alice');
  });

  it('explains unusable authenticators and bad usage', async () => {
    const noOverride = deps(database);
    expect(
      await tokenCommand(['create', '--tenant', 't', '--sub', 'a', '--authenticator', 'no_override'], noOverride),
    ).toBe(1);
    expect(noOverride.captured.stderr).toContain('does not accept admin tokens: set "allowAuthzOverride: true"');
    const unknown = deps(database);
    expect(await tokenCommand(['create', '--tenant', 't', '--sub', 'a', '--authenticator', 'nope'], unknown)).toBe(1);
    expect(unknown.captured.stderr).toContain('no authenticator named "nope"');
    const missing = deps(database);
    expect(await tokenCommand(['create', '--sub', 'a'], missing)).toBe(2);
    expect(missing.captured.stderr).toContain('--tenant and --sub are required');
    expect(await tokenCommand(['create', '--tenant', 't', '--sub', 'a', '--ttl', '-5'], deps(database))).toBe(2);
    expect(await tokenCommand(['mint'], deps(database))).toBe(2);
  });
});

describe('sluice encrypt', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.destroy();
  });

  async function projectKeys(): Promise<KeyManager> {
    const { secret } = await resolveKeyEncryptionSecret(loadServiceConfig(configFile).auth, dir);
    return new KeyManager({
      repository: new KeyRepository(database.knex),
      encryptor: await KeyEncryptor.fromSecret(secret),
    });
  }

  it('prints a stanza that decrypts with the project key, creating the key on demand', async () => {
    const d = deps(database, '  a long secret value\n'.repeat(40));
    expect(
      await encryptCommand(
        ['--tenant', 'tenant-one', '--project', 'org/project', '--name', 'deploy', '--field', 'password'],
        d,
      ),
    ).toBe(0);
    const parsed = parse(d.captured.stdout, {
      customTags: [{ tag: '!encrypted/pkcs1-oaep', collection: 'seq', resolve: (seq) => seq }],
    }) as Array<{ secret: { name: string; data: { password: string[] } } }>;
    expect(parsed[0].secret.name).toBe('deploy');
    // 877 bytes after stripping, at most 214 per chunk with a 2048-bit key.
    expect(parsed[0].secret.data.password.length).toBe(5);
    const key = await (await projectKeys()).secretsKey('git.example.com/org/project');
    expect(decryptSecret(parsed[0].secret.data.password, key.privateKey())).toBe(
      '  a long secret value\n'.repeat(40).trim(),
    );
  });

  it('resolves canonical names and projects inside groups, and reads --infile', async () => {
    const infile = path.join(dir, 'secret.txt');
    writeFileSync(infile, 'file secret\n');
    const d = deps(database);
    expect(
      await encryptCommand(
        ['--tenant', 'tenant-one', '--project', 'git.example.com/org/grouped', '--infile', infile, '--no-strip'],
        d,
      ),
    ).toBe(0);
    expect(d.captured.stdout).toContain('<fieldname>: !encrypted/pkcs1-oaep');
    const chunk = d.captured.stdout.split('\n').slice(4).join('');
    const key = await (await projectKeys()).secretsKey('git.example.com/org/grouped');
    expect(decryptSecret(chunk.replace(/^\s*- /, ''), key.privateKey())).toBe('file secret\n');
  });

  it('refuses a project that is not in the tenant', async () => {
    const d = deps(database, 'x');
    expect(await encryptCommand(['--tenant', 'tenant-one', '--project', 'org/elsewhere'], d)).toBe(1);
    expect(d.captured.stderr).toContain('project "org/elsewhere" is not part of tenant "tenant-one"');
    expect(await encryptCommand(['--tenant', 'tenant-one'], deps(database))).toBe(2);
  });
});

describeIf(POSTGRES)('sluice encrypt on a PostgreSQL database that does not exist yet', () => {
  const name = `${testDatabasePrefix()}encrypt_${process.pid}`;
  const admin = () => new pg.Client({ connectionString: process.env.DATABASE_URL });
  afterAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  });

  it('creates the database, as migrate does, says so on stderr and stores the key there', async () => {
    const url = Object.assign(new URL(process.env.DATABASE_URL as string), { pathname: `/${name}` }).toString();
    const captured = { stdout: '', stderr: '' };
    const database = openDatabase({ kind: 'postgres', url });
    try {
      const d: AuthCommandDeps = {
        io: {
          stdout: { write: (t: string) => (captured.stdout += t) },
          stderr: { write: (t: string) => (captured.stderr += t) },
          readStdin: () => Promise.resolve('secret'),
        },
        loadConfig: () => ({ ...loadServiceConfig(configFile), database: { url, applicationName: 'sluice' } }),
        openDatabase: () => database,
        keySizes: { secrets: 1024 },
      };
      expect(await encryptCommand(['--tenant', 'tenant-one', '--project', 'org/project'], d)).toBe(0);
      expect(captured.stderr).toBe(`sluice: created the database ${name}\n`);
      expect(captured.stdout).toContain('!encrypted/pkcs1-oaep');
    } finally {
      await database.close();
    }
    const check = openDatabase({ kind: 'postgres', url });
    try {
      const keys = await check.knex('keys').count<Array<{ count: string }>>({ count: '*' });
      expect(Number(keys[0].count)).toBeGreaterThan(0);
    } finally {
      await check.close();
    }
  });
});

describe('the sluice binary', () => {
  it('runs encrypt end to end on an embedded database', async () => {
    const dataDir = path.join(dir, 'data', 'pgdata');
    const { secret } = await resolveKeyEncryptionSecret(loadServiceConfig(configFile).auth, dir);
    const encryptor = await KeyEncryptor.fromSecret(secret);
    // Create the project key beforehand with a small size: 4096-bit generation would dominate
    // the test's run time (the default sizes are checked in keys.test.ts).
    const before = openDatabase({ kind: 'pglite', dataDir });
    await migrateLatest(before.knex);
    const created = await new KeyManager({
      repository: new KeyRepository(before.knex),
      encryptor,
      sizes: { secrets: 1024 },
    }).secretsKey('git.example.com/sluice-config');
    await before.close();

    const secretFile = path.join(dir, 'bin-secret.txt');
    writeFileSync(secretFile, 'binary secret');
    const env = { ...process.env, DATABASE_URL: '' };
    const encrypted = await run(
      'node',
      [
        path.join(root, 'bin/sluice.js'),
        'encrypt',
        '-c',
        configFile,
        '--tenant',
        'tenant-one',
        '--project',
        'sluice-config',
        '--infile',
        secretFile,
      ],
      { env },
    );
    expect(encrypted.stdout.startsWith('- secret:\n    name: <name>\n')).toBe(true);
    const chunk = encrypted.stdout
      .split('\n')
      .slice(4)
      .join('')
      .replace(/^\s*- /, '');
    expect(decryptSecret(chunk, created.privateKey())).toBe('binary secret');
  }, 120_000);
});
