/**
 * A quickstart-like deployment for fault tests: the example repositories seeded as bare git
 * repositories in a temporary directory, service configurations of any number of Sluice
 * processes sharing one PostgreSQL database (in-process or as a file for `sluice serve`), change
 * refs pushed with plain git, admin enqueues into `gate`, and the gate's outcome read from the
 * store: buildsets, items and builds per change, to find lost or duplicated work.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { parseServiceConfig, type ServiceConfig } from '../../src/config/service';
import { git } from '../../src/sources/git-cli';
import { seedRepositories } from '../../src/drivers/git/seed';
import { createGitFixture, type FileSpec, type GitFixture } from './git-fixtures';
import { adminToken, liveTestConfig } from './live';

export const TENANT = 'example';
export const PROJECT = 'example/hello';

/** The admin enqueue mutation (its result names the accepted event or the error). */
export const ENQUEUE = /* GraphQL */ `
  mutation ($input: EnqueueInput!) {
    enqueue(input: $input) {
      __typename
      ... on Error {
        message
      }
    }
  }
`;

/** What the store says about one change in `gate`. */
export interface GateOutcome {
  change: number;
  /** Queue items that held the change. */
  items: number;
  /** Buildset results (null: running). */
  buildsets: Array<string | null>;
  /** Builds beyond one per job and buildset (duplicated work). */
  duplicateBuilds: number;
}

export class GateDeployment {
  private constructor(
    private readonly git: GitFixture,
    /** Data directories and configuration files of the processes. */
    readonly root: string,
  ) {}

  static async create(prefix: string): Promise<GateDeployment> {
    const fixture = createGitFixture();
    await seedRepositories(path.resolve(__dirname, '../../examples/quickstart/repos'), fixture.baseDir);
    return new GateDeployment(fixture, mkdtempSync(path.join(os.tmpdir(), `${prefix}-`)));
  }

  get baseurl(): string {
    return this.git.baseDir;
  }

  get bareRepo(): string {
    return path.join(this.baseurl, `${PROJECT}.git`);
  }

  /**
   * The raw configuration of process `name` on `databaseUrl`: its own data directory, the shared
   * repositories (polled rarely: changes enter the gate by enqueue), the live-test authenticator.
   */
  rawConfig(name: string, databaseUrl: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
    const dataDir = path.join(this.root, name);
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(
      path.join(this.root, 'main.yaml'),
      `- tenant:\n    name: ${TENANT}\n    source:\n      local:\n        config-projects: [sluice-config]\n        untrusted-projects: [${PROJECT}]\n`,
    );
    return {
      listen: { host: '127.0.0.1', port: 0 },
      database: { url: databaseUrl, applicationName: name },
      dataDir,
      tenantConfig: path.join(this.root, 'main.yaml'),
      connections: {
        local: { driver: 'git', baseurl: this.baseurl, canonicalHostname: 'git.example.local', pollInterval: 3600 },
      },
      logs: { url: '/logs/' },
      web: { dashboard: false },
      auth: { authenticators: liveTestConfig().auth.authenticators },
      ...extra,
    };
  }

  /** The parsed configuration of process `name` (for `buildApp`). */
  serviceConfig(name: string, databaseUrl: string, extra: Record<string, unknown> = {}): ServiceConfig {
    const file = path.join(this.root, `${name}.yaml`);
    return parseServiceConfig(JSON.stringify(this.rawConfig(name, databaseUrl, extra)), file);
  }

  /** The configuration of process `name` as a file for `sluice serve --config` (JSON is YAML). */
  configFile(name: string, databaseUrl: string, extra: Record<string, unknown> = {}): string {
    const file = path.join(this.root, `${name}.yaml`);
    writeFileSync(file, JSON.stringify(this.rawConfig(name, databaseUrl, extra), null, 2));
    return file;
  }

  /** Push change `<number>,1` (a new file of its own and `files`, on top of master); resolves with its sha. */
  pushChange(number: number, files: FileSpec = {}): Promise<string> {
    return this.git.pushChange(PROJECT, number, 1, {
      parent: 'master',
      files: { [`notes-${number}.md`]: `Notes of change ${number}\n`, ...files },
      message: `Notes ${number}`,
    });
  }

  /** Enqueue change `<number>,1` into gate through the GraphQL API at `baseUrl`. */
  async enqueue(baseUrl: string, number: number): Promise<void> {
    const response = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken(TENANT)}` },
      body: JSON.stringify({
        query: ENQUEUE,
        variables: { input: { tenant: TENANT, pipeline: 'gate', project: PROJECT, change: `${number},1` } },
      }),
    });
    const body = (await response.json()) as { data?: { enqueue: { __typename: string; message?: string } } };
    if (body.data?.enqueue.__typename !== 'ManagementEventAccepted') {
      throw new Error(`enqueue of change ${number} failed: ${JSON.stringify(body)}`);
    }
  }

  /** The gate's outcome per change, from the store. */
  async gateOutcome(knex: Knex, changes: readonly number[]): Promise<GateOutcome[]> {
    const buildsets: Array<{ id: number; change: number; result: string | null }> = await knex('buildsets')
      .join('buildset_refs', 'buildset_refs.buildset_id', 'buildsets.id')
      .join('refs', 'refs.id', 'buildset_refs.ref_id')
      .where({ 'buildsets.tenant': TENANT, 'buildsets.pipeline': 'gate' })
      .orderBy('buildsets.id')
      .select('buildsets.id', 'refs.change', 'buildsets.result');
    const items: Array<{ changes: Array<{ number?: number }> | string }> = await knex('queue_items')
      .where({ tenant: TENANT, pipeline: 'gate' })
      .select('changes');
    const builds: Array<{ buildset_id: number; job_name: string; n: number | string }> = await knex('builds')
      .whereIn(
        'buildset_id',
        buildsets.map((row) => row.id),
      )
      .groupBy('buildset_id', 'job_name')
      .select('buildset_id', 'job_name', knex.raw('count(*) as n'));
    return changes.map((change) => {
      const own = buildsets.filter((row) => Number(row.change) === change);
      const ids = new Set(own.map((row) => row.id));
      return {
        change,
        items: items.filter((item) => {
          const list =
            typeof item.changes === 'string' ? (JSON.parse(item.changes) as Array<{ number?: number }>) : item.changes;
          return list.some((entry) => entry.number === change);
        }).length,
        buildsets: own.map((row) => row.result),
        duplicateBuilds: builds
          .filter((row) => ids.has(row.buildset_id))
          .reduce((sum, row) => sum + Number(row.n) - 1, 0),
      };
    });
  }

  /** True when master contains `sha`. */
  async merged(sha: string): Promise<boolean> {
    try {
      await git(this.bareRepo, ['merge-base', '--is-ancestor', sha, 'refs/heads/master']);
      return true;
    } catch {
      return false;
    }
  }

  cleanup(): void {
    rmSync(this.root, { recursive: true, force: true });
    this.git.cleanup();
  }
}
