/** The `sluice` command line: version, usage errors (`--roles` too), migrate, validate-config exit codes. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { POSTGRES, itIf } from '../helpers/preconditions';
import { testDatabasePrefix } from '../helpers/database';

const ROOT = path.join(__dirname, '..', '..');

function sluice(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'sluice.js'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

// Each test spawns the CLI (tsx compile + PGlite start): allow for a loaded machine.
jest.setTimeout(120_000);

describe('sluice CLI', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-cli-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints its version', async () => {
    const result = await sluice(['version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^sluice \d+\.\d+\.\d+\n$/);
  });

  it('exits 2 with usage on unknown commands and options', async () => {
    expect((await sluice(['frobnicate'])).code).toBe(2);
    expect((await sluice(['--nope'])).code).toBe(2);
    const noCommand = await sluice([]);
    expect(noCommand.code).toBe(2);
    expect(noCommand.stdout).toContain('Usage: sluice <command>');
  });

  it('serve exits 2 on an unknown or empty --roles list, and --roles outside serve', async () => {
    const unknown = await sluice(['serve', '--roles', 'api,sheduler']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'sluice: --roles: unknown role "sheduler"; roles are api, scheduler, executor, launcher\n',
    );
    const empty = await sluice(['serve', '--roles', '']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('sluice: --roles: no role given');
    const twice = await sluice(['serve', '-r', 'api,api']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('role "api" is named twice');
    const elsewhere = await sluice(['migrate', '--roles', 'api']);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain('--roles applies to serve only');
  });

  it('validate-config accepts the quickstart deployment', async () => {
    const result = await sluice(['validate-config', '--config', 'examples/quickstart/sluice.yaml']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/\n0 error\(s\), \d+ warning\(s\)\n$/);
    expect(result.code).toBe(0);
  });

  it('validate-config exits 1 on an unreadable tenant file', async () => {
    writeFileSync(path.join(dir, 'missing-tenants.yaml'), 'tenantConfig: nowhere.yaml\n');
    const result = await sluice(['validate-config', '--config', path.join(dir, 'missing-tenants.yaml')]);
    expect(result.code).toBe(1);
    // One line with the file, the line and the key (docs/configuration.md#files-the-configuration-names).
    expect(result.stderr).toContain(
      `missing-tenants.yaml:1: tenantConfig: cannot read ${path.join(dir, 'nowhere.yaml')}: no such file\n`,
    );
  });

  it('validate-config exits 1 on a tenant file with a YAML error', async () => {
    writeFileSync(path.join(dir, 'broken-main.yaml'), '- tenant:\n    name: [unclosed\n');
    writeFileSync(path.join(dir, 'broken.yaml'), 'tenantConfig: broken-main.yaml\n');
    const result = await sluice(['validate-config', '--config', path.join(dir, 'broken.yaml')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/error: .*broken-main\.yaml/);
  });

  it('validate-config exits 1 on an invalid service configuration', async () => {
    writeFileSync(path.join(dir, 'invalid.yaml'), 'api: {restShape: sideways}\n');
    const result = await sluice(['validate-config', '--config', path.join(dir, 'invalid.yaml')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('invalid.yaml:1: api.restShape');
  });

  it('migrate applies migrations to the embedded store and is idempotent', async () => {
    // Without the shipped template (docs/configuration.md#embedded-database) a new store is
    // pristine and migrate applies every migration.
    writeFileSync(path.join(dir, 'migrate.yaml'), 'dataDir: migrate-data\n');
    const env = { DATABASE_URL: '', SLUICE_SHIPPED_TEMPLATE: 'off' };
    const first = await sluice(['migrate', '--config', path.join(dir, 'migrate.yaml')], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Applied: 0001-initial');
    const second = await sluice(['migrate', '--config', path.join(dir, 'migrate.yaml')], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('Database is up to date.\n');
  });

  it('migrate finds a new embedded store made from the shipped template up to date', async () => {
    writeFileSync(path.join(dir, 'migrate-shipped.yaml'), 'dataDir: migrate-shipped-data\n');
    const result = await sluice(['migrate', '--config', path.join(dir, 'migrate-shipped.yaml')], { DATABASE_URL: '' });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Database is up to date.\n');
  });

  itIf(POSTGRES)('migrate creates a missing PostgreSQL database, or names it in one line when it cannot', async () => {
    const name = `${testDatabasePrefix()}cli_${randomBytes(4).toString('hex')}`;
    const role = `${name}_role`;
    const server = new URL(process.env.DATABASE_URL ?? '');
    const urlOf = (user: string): string => {
      const url = new URL(server);
      url.username = user;
      url.password = '';
      url.pathname = `/${name}`;
      return url.toString();
    };
    const admin = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 1 } });
    await admin.raw(`CREATE ROLE ${role} LOGIN`);
    try {
      // A role that may not create databases: one line, no stack.
      const refused = await sluice(['migrate'], { DATABASE_URL: urlOf(role) });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `sluice: database "${name}" does not exist on ${server.hostname}:${server.port || '5432'} and could not be created ` +
          `(permission denied to create database); create it (createdb "${name}") or change database.url / DATABASE_URL\n`,
      );
      // The server's own role creates it and migrates it.
      const created = await sluice(['migrate'], { DATABASE_URL: urlOf(server.username) });
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(new RegExp(`^Created database ${name}\\.\nApplied: 0001-initial`));
    } finally {
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.raw(`DROP ROLE IF EXISTS ${role}`);
      await admin.destroy();
    }
  });
});
