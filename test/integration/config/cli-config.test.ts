/** `sluice validate-config` over tenant and project configuration, and `sluice reconfigure`. */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../../src/store/database';
import { ReconfigureRequestRepository } from '../../../src/store/repositories/reconfigure-requests';
import { buildFixtureRepos, type FixtureRepos } from '../../helpers/config-fixtures';
import { runCli as sluice, useCliDatabase } from '../../helpers/cli-run';

const ROOT = path.join(__dirname, '..', '..', '..');
// The reconfigure request goes to a fresh PostgreSQL test database when one is available
// (the CLI reads DATABASE_URL), otherwise to the embedded store of the test deployment.
const cliDatabase = useCliDatabase();

// git and PGlite work on a loaded machine.
jest.setTimeout(60_000);

let dir: string;
let repos: FixtureRepos;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-cli-config-'));
  repos = await buildFixtureRepos(path.join(__dirname, '../../fixtures/config/basic'));
  cpSync(path.join(__dirname, '../../fixtures/config/basic/main.yaml'), path.join(dir, 'main.yaml'));
  writeFileSync(
    path.join(dir, 'sluice.yaml'),
    `dataDir: data\ntenantConfig: main.yaml\nconnections:\n  gerrit:\n    driver: git\n    baseurl: ${repos.baseDir}\n    canonicalHostname: review.example.com\n`,
  );
});

afterAll(async () => {
  repos.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe('sluice validate-config and reconfigure', () => {
  it('prints every config error with its name and location and exits 1', async () => {
    const result = await sluice(['validate-config', '--config', path.join(dir, 'sluice.yaml')]);
    expect(result.stdout).toContain(
      'tenant tenant-one: 3 project(s), 2 pipeline(s), 4 job(s), 1 error(s), 0 warning(s)',
    );
    expect(result.stdout).toContain(
      'error: [Job Not Found] org/project2@master zuul.yaml:3: Job does-not-exist not defined',
    );
    expect(result.stdout).toMatch(/\n1 error\(s\), 0 warning\(s\)\n$/);
    expect(result.code).toBe(1);
  });

  it('--offline loads the tenants on local repositories and says which it left out', async () => {
    writeFileSync(
      path.join(dir, 'offline-main.yaml'),
      `${readFileSync(path.join(dir, 'main.yaml'), 'utf8')}- tenant:\n    name: on-github\n    source:\n      github:\n` +
        '        config-projects: [org/config]\n        untrusted-projects: [org/app]\n',
    );
    writeFileSync(
      path.join(dir, 'offline.yaml'),
      `${readFileSync(path.join(dir, 'sluice.yaml'), 'utf8').replace('main.yaml', 'offline-main.yaml')}` +
        // A host that resolves nowhere: any request would fail the projects it reads.
        '  github:\n    driver: github\n    server: github.example.invalid\n    apiToken: t\n    webhookToken: s\n',
    );
    const result = await sluice(['validate-config', '--offline', '--config', path.join(dir, 'offline.yaml')]);
    expect(result.stdout).toContain(
      'tenant tenant-one: 3 project(s), 2 pipeline(s), 4 job(s), 1 error(s), 0 warning(s)',
    );
    expect(result.stdout).toContain(
      'tenant on-github: not loaded (--offline): 2 of its 2 project(s) are on remote connection(s) github\n',
    );
    expect(result.stdout).toMatch(/\n1 error\(s\), 0 warning\(s\)\n$/);
    expect(result.code).toBe(1); // tenant-one's error
  });

  it("an unknown Ansible version in the tenant file is that tenant's error, printed with its line", async () => {
    writeFileSync(
      path.join(dir, 'ansible-main.yaml'),
      readFileSync(path.join(dir, 'main.yaml'), 'utf8').replace(
        '    name: tenant-one\n',
        '    name: tenant-one\n    default-ansible-version: 8\n',
      ),
    );
    writeFileSync(
      path.join(dir, 'ansible.yaml'),
      readFileSync(path.join(dir, 'sluice.yaml'), 'utf8').replace('main.yaml', 'ansible-main.yaml'),
    );
    const result = await sluice(['validate-config', '--config', path.join(dir, 'ansible.yaml')]);
    expect(result.stdout).toContain(
      "error: [Unknown Configuration Error] tenant tenant-one: Requested ansible version '8' is unknown. Supported versions are 9, 11 (tenant file line 3)\n",
    );
    expect(result.stdout).toMatch(/\n2 error\(s\), 0 warning\(s\)\n$/);
    expect(result.code).toBe(1);
  });

  it('a GitHub App key that is no PEM key is a configuration error, one line, not "ok" and a decoder error', async () => {
    writeFileSync(path.join(dir, 'bad.pem'), 'not a key\n');
    writeFileSync(
      path.join(dir, 'bad-pem.yaml'),
      'tenantConfig: main.yaml\nconnections:\n  github:\n    driver: github\n    appId: 1\n    appKeyFile: bad.pem\n    webhookToken: s\n',
    );
    const result = await sluice(['validate-config', '--config', path.join(dir, 'bad-pem.yaml')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `sluice: invalid configuration:\n  ${path.join(dir, 'bad-pem.yaml')}:6: connections.github.appKeyFile: ` +
        `${path.join(dir, 'bad.pem')} does not hold an RSA private key in PEM\n`,
    );
  });

  it('validates the quickstart without creating repositories under its baseurl', async () => {
    const copy = path.join(dir, 'quickstart');
    cpSync(path.join(ROOT, 'examples', 'quickstart'), copy, { recursive: true });
    const config = path.join(copy, 'sluice.yaml');
    writeFileSync(config, readFileSync(config, 'utf8').replace(/\.\.\/\.\.\/data/g, 'data'));
    const result = await sluice(['validate-config', '--config', path.join(copy, 'sluice.yaml')]);
    expect(result.stdout).toContain('tenant example: 2 project(s), 4 pipeline(s), 5 job(s), 0 error(s), 0 warning(s)');
    expect(result.code).toBe(0);
    expect(existsSync(path.join(copy, 'data', 'repos'))).toBe(false);
  });

  it('queues a reconfigure request for the running service', async () => {
    const result = await sluice(['reconfigure', '--config', path.join(dir, 'sluice.yaml'), '--tenant', 'tenant-one']);
    expect(result.stdout).toMatch(/Reconfiguration of tenant tenant-one requested \(request \d+\)\./);
    expect(result.code).toBe(0);
    const smart = await sluice(['reconfigure', '--config', path.join(dir, 'sluice.yaml'), '--smart']);
    expect(smart.stdout).toMatch(
      /Reconfiguration of the tenants whose tenant-file entry changed requested \(request \d+\)\./,
    );
    expect(smart.code).toBe(0);
    const both = await sluice(['reconfigure', '--config', path.join(dir, 'sluice.yaml'), '--smart', '-t', 'x']);
    expect([both.code, both.stderr]).toEqual([2, 'sluice: reconfigure takes --smart or --tenant, not both\n']);
    const url = cliDatabase.url();
    const database =
      url !== undefined
        ? openDatabase({ kind: 'postgres', url })
        : openDatabase({ kind: 'pglite', dataDir: path.join(dir, 'data', 'pgdata') });
    try {
      const claimed = await new ReconfigureRequestRepository(database.knex).claimPending(new Date());
      expect(claimed.map((r) => [r.tenant, r.smart])).toEqual([
        ['tenant-one', undefined],
        [undefined, true],
      ]);
    } finally {
      await database.close();
    }
  });
});
