/**
 * examples/cluster/ as an operator runs it (examples/cluster/README.md): `start.sh` in a private
 * copy of the repository's examples, on a PostgreSQL database that does not exist yet (the api
 * process creates it) and Redis, each process on a free port. A change pushed to the cluster's
 * repository and enqueued into gate through the api process is tested by the executor process
 * and merged; SIGTERM to the script stops all four processes.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import knexFactory from 'knex';
import { MULTI_PROCESS, describeIf } from '../../helpers/preconditions';
import { testDatabasePrefix } from '../../helpers/database';
import { freePort, killGroup, newcomerEnvironment, quickstartCopy, spawnGroup } from '../../helpers/quickstart-copy';

// Four process starts and a gate run on a loaded machine.
jest.setTimeout(300_000);

const ROLES = ['api', 'scheduler', 'executor', 'launcher'] as const;

async function gateResult(api: string, change: number): Promise<string> {
  const query = `{ tenant(name: "example") { ... on Tenant { buildsets(filter: {change: [${change}], pipeline: ["gate"], complete: true}) { nodes { result } } } } }`;
  for (let attempt = 0; attempt < 240; attempt++) {
    const answer = (await (
      await fetch(`${api}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      })
    ).json()) as { data?: { tenant?: { buildsets?: { nodes: Array<{ result: string }> } } } };
    const result = answer.data?.tenant?.buildsets?.nodes[0]?.result;
    if (result !== undefined) {
      return result;
    }
    await new Promise((resolve) => setTimeout(resolve, 500)); // the gate's end has no event outside the cluster
  }
  throw new Error(`change ${change} has no gate result`);
}

describeIf(MULTI_PROCESS)('examples/cluster', () => {
  let dir: string;
  let script: ChildProcess | undefined;
  let databaseUrl: string;

  beforeAll(() => {
    dir = quickstartCopy();
    const url = new URL(process.env.DATABASE_URL ?? '');
    url.pathname = `/${testDatabasePrefix()}cluster_${randomBytes(4).toString('hex')}`;
    databaseUrl = url.toString();
  });

  afterAll(async () => {
    if (script) {
      killGroup(script);
    }
    rmSync(dir, { recursive: true, force: true });
    const admin = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 1 } });
    await admin.raw(`DROP DATABASE IF EXISTS "${new URL(databaseUrl).pathname.slice(1)}" WITH (FORCE)`);
    await admin.destroy();
  });

  it('start.sh starts the four roles on a new database; a change is gated and merged; SIGTERM stops them', async () => {
    // Free ports instead of 9000-9003, and a Redis channel prefix of this run's own.
    const ports = await Promise.all(ROLES.map(() => freePort()));
    for (const role of ROLES) {
      const file = path.join(dir, 'examples', 'cluster', `${role}.yaml`);
      let text = readFileSync(file, 'utf8');
      ROLES.forEach((other, i) => (text = text.replaceAll(`127.0.0.1:${9000 + i}`, `127.0.0.1:${ports[i]}`)));
      text = text
        .replace(/port: 900\d/, `port: ${ports[ROLES.indexOf(role)]}`)
        .replace("channelPrefix: 'sluice-cluster:'", `channelPrefix: 'sluice-cluster-test-${process.pid}:'`);
      writeFileSync(file, text);
    }
    const child = spawnGroup(
      'bash',
      ['examples/cluster/start.sh'],
      dir,
      newcomerEnvironment(dir, { DATABASE_URL: databaseUrl, SLUICE_LOG_LEVEL: 'info' }),
    );
    script = child;
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const api = await new Promise<string>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /cluster ready: the dashboard and API at (http:\/\/\S+)\//.exec(output);
        if (match) {
          resolve(match[1]);
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      void exited.then((code) => reject(new Error(`start.sh exited early (${code}): ${output}`)));
    });
    expect(api).toBe(`http://127.0.0.1:${ports[0]}`);
    // The api process created the database, in one line of its log.
    expect(readFileSync(path.join(dir, 'data', 'cluster', 'api.log'), 'utf8')).toContain(
      '"msg":"created the database"',
    );
    for (const [i, role] of ROLES.entries()) {
      expect(output).toContain(`${role}: http://127.0.0.1:${ports[i]}/health/ready`);
    }

    const env = newcomerEnvironment(dir);
    const token = execFileSync(
      'node',
      ['bin/sluice.js', 'token', 'create', '-c', 'examples/cluster/api.yaml', '--tenant', 'example', '--sub', 'test'],
      { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    ).trim();
    const repo = path.join(dir, 'data', 'cluster', 'repos', 'example', 'hello.git');
    const work = path.join(dir, 'data', 'work');
    const gitIn = (args: string[]): string => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' });
    gitIn(['clone', '-q', repo, work]);
    gitIn([
      '-C',
      work,
      '-c',
      'user.name=T',
      '-c',
      'user.email=t@example.com',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'Change one',
    ]);
    gitIn(['-C', work, 'push', '-q', 'origin', 'HEAD:refs/changes/01/1/1']);
    // The scheduler's poller sees the change ref within its pollInterval; until then the enqueue is refused.
    let enqueued = '';
    for (let attempt = 0; attempt < 120 && enqueued !== 'true'; attempt++) {
      const response = await fetch(`${api}/api/tenant/example/project/example/hello/enqueue`, {
        method: 'POST',
        headers: { authorization: token, 'content-type': 'application/json' },
        body: JSON.stringify({ pipeline: 'gate', change: '1,1' }),
      });
      enqueued = (await response.text()).trim();
      if (enqueued !== 'true') {
        await new Promise((resolve) => setTimeout(resolve, 500)); // waiting for the poll of a process we do not control
      }
    }
    expect(enqueued).toBe('true');
    expect(await gateResult(api, 1)).toBe('SUCCESS');
    expect(gitIn(['--git-dir', repo, 'log', '--oneline', '-2', 'master'])).toContain('Merge change 1,1 into master');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const port of ports) {
      await expect(fetch(`http://127.0.0.1:${port}/health/live`)).rejects.toThrow();
    }
  });
});
