/** `sluice validate-config` over tenant and project configuration, and `sluice reconfigure`. */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../../src/store/database';
import { ReconfigureRequestRepository } from '../../../src/store/repositories/reconfigure-requests';
import { buildFixtureRepos, type FixtureRepos } from '../../helpers/config-fixtures';

const ROOT = path.join(__dirname, '..', '..', '..');

function sluice(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'sluice.js'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATABASE_URL: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

// Each test spawns the CLI (tsx compile, git, PGlite): allow for a loaded machine.
jest.setTimeout(120_000);

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

afterAll(() => {
  repos.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe('sluice validate-config and reconfigure', () => {
  it('prints every config error with its name and location and exits 1', async () => {
    const result = await sluice(['validate-config', '--config', path.join(dir, 'sluice.yaml')]);
    expect(result.stdout).toContain('tenant tenant-one: 3 project(s), 2 pipeline(s), 4 job(s), 1 error(s), 0 warning(s)');
    expect(result.stdout).toContain('error: [Job Not Found] org/project2@master zuul.yaml:3: Job does-not-exist not defined');
    expect(result.stdout).toMatch(/\n1 error\(s\), 0 warning\(s\)\n$/);
    expect(result.code).toBe(1);
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
    const database = openDatabase({ kind: 'pglite', dataDir: path.join(dir, 'data', 'pgdata') });
    try {
      const claimed = await new ReconfigureRequestRepository(database.knex).claimPending(new Date());
      expect(claimed.map((r) => r.tenant)).toEqual(['tenant-one']);
    } finally {
      await database.close();
    }
  });
});
