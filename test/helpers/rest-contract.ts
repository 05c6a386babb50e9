/**
 * The server of the REST contract tests (test/integration/rest-contract/): tenant-one of the basic
 * configuration fixture from real git repositories, a small build history (two buildsets of three
 * builds, two system events) and the OpenAPI document the server publishes for each shape.
 */
import path from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020';
import type { ServiceConfig } from '../../src/config/service';
import type { HttpMethod } from '../../rest-compat/route';
import type { RestShape } from '../../rest-compat/shape';
import { buildFixtureRepos, type FixtureRepos } from './config-fixtures';
import { historyFactory, defaultRef } from './factories';
import { OpenApiDocuments } from './openapi-documents';
import { startTestServer, type TestServer } from './server';

export type Json = Record<string, unknown>;

export { SHAPES } from './openapi-documents';

export interface RestContract {
  readonly server: TestServer;
  readonly repos: FixtureRepos;
  /** Uuids and ids of the seeded history, set before the tests run. */
  readonly uuids: {
    buildOne: string;
    buildsetOne: string;
    buildsetTwo: string;
    minBuildId: number;
    maxBuildId: number;
  };
  /** GET (or `init.method`) with the shape header. */
  get(path: string, shape?: RestShape, init?: RequestInit): Promise<Response>;
  /** The JSON body of a 200 answer. */
  getJson<T = unknown>(path: string, shape?: RestShape): Promise<T>;
  /** The response schema the served OpenAPI document declares for path x method x shape. */
  responseValidator(shape: RestShape, path: string, method: HttpMethod, status: number): ValidateFunction;
  /** Concrete URL for a route pattern with the fixture's values. */
  concretePath(pattern: string): string;
}

/**
 * Starts the server before the tests of the calling file (or describe) and stops it after them;
 * `config` adds to its service configuration (authenticators, limits).
 */
export function useRestContract(options: { config?: Partial<ServiceConfig> } = {}): RestContract {
  let server: TestServer | undefined;
  let repos: FixtureRepos | undefined;
  const documents = new OpenApiDocuments();
  const uuids = { buildOne: '', buildsetOne: '', buildsetTwo: '', minBuildId: 0, maxBuildId: 0 };
  const running = (): TestServer => {
    if (server === undefined) {
      throw new Error('the REST contract server is not running');
    }
    return server;
  };

  beforeAll(async () => {
    // tenant-one of the basic configuration fixture (common-config, org/project1, org/project2).
    const fixture = path.join(__dirname, '../fixtures/config/basic');
    repos = await buildFixtureRepos(fixture);
    server = await startTestServer({
      config: {
        tenantConfig: path.join(fixture, 'main.yaml'),
        connections: {
          gerrit: {
            driver: 'git',
            baseurl: repos.baseDir,
            pollInterval: 3600,
            canonicalHostname: 'review.example.com',
          },
          timer: { driver: 'timer' },
        },
        ...options.config,
      },
    });
    const history = historyFactory(server.database.knex);
    // docs/rest.md#reference-cases "add_base_changes": 1,1 on org/project and 2,1 on org/project1, three builds each.
    const one = await history.buildset({
      refs: [defaultRef()],
      triggeredBy: 'Triggered by GerritChange org/project 1,1',
    });
    const merge = await history.build(one, { jobName: 'project-merge', result: 'SUCCESS' });
    await history.build(one, {
      jobName: 'project-test1',
      result: 'SUCCESS',
      logUrl: 'https://logs.example.com/1/',
      artifacts: [
        { name: 'docs', url: 'http://example.com/docs' },
        { name: 'relative', url: 'http://logs.example.com/build/relative/docs', metadata: { foo: 'bar' } },
      ],
      provides: ['some-artifact'],
    });
    await history.build(one, { jobName: 'project-test2', result: 'SUCCESS' });
    await history.finish(one.buildset, 'SUCCESS', 'Build succeeded (gate pipeline).');
    const two = await history.buildset({
      refs: [
        defaultRef({
          project: 'org/project1',
          ref: 'refs/changes/02/2/1',
          change: 2,
          refUrl: 'https://review.example.com/2',
        }),
      ],
    });
    await history.build(two, { jobName: 'project-merge', result: 'FAILURE' });
    await history.build(two, {
      jobName: 'project-test1',
      result: 'SKIPPED',
      errorDetail: 'Skipped due to failed job project-merge',
    });
    const last = await history.build(two, {
      jobName: 'project-test2',
      result: 'SKIPPED',
      errorDetail: 'Skipped due to failed job project-merge',
      held: true,
    });
    await history.finish(two.buildset, 'FAILURE', 'Build failed.');
    await history.systemEvent('tenant-one', 'reconfigured', 'Tenant reconfigured');
    await history.systemEvent('tenant-one', 'config-errors-changed', '2 configuration errors');
    uuids.buildOne = merge.uuid;
    uuids.buildsetOne = one.buildset.uuid;
    uuids.buildsetTwo = two.buildset.uuid;
    uuids.minBuildId = merge.id;
    uuids.maxBuildId = last.id;
    await documents.load(server.url);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    repos?.cleanup();
  });

  const get = (path: string, shape: RestShape = 'current', init: RequestInit = {}): Promise<Response> =>
    fetch(`${running().url}${path}`, {
      ...init,
      headers: { 'X-Sluice-Api-Shape': shape, ...(init.headers as Record<string, string>) },
    });

  return {
    get server() {
      return running();
    },
    get repos() {
      if (repos === undefined) {
        throw new Error('the REST contract fixture is not built');
      }
      return repos;
    },
    uuids,
    get,
    getJson: async <T = unknown>(path: string, shape: RestShape = 'current'): Promise<T> => {
      const res = await get(path, shape);
      expect(res.status).toBe(200);
      return (await res.json()) as T;
    },
    responseValidator: (shape, path, method, status) => documents.responseValidator(shape, path, method, status),
    concretePath: (pattern) => {
      const values: Record<string, string> = {
        tenant_name: 'tenant-one',
        pipeline_name: 'check',
        project_name: 'org/project1',
        branch_name: 'master',
        job_name: 'p1-unit',
      };
      const path = pattern.replace(/\{([a-z_]+)(?::\.\*)?\}/g, (_all, name: string) => {
        if (name === 'uuid') {
          return pattern.includes('buildset/') ? uuids.buildsetOne : uuids.buildOne;
        }
        return values[name] ?? name;
      });
      return path === '' ? '/api' : `/api/${path}`;
    },
  };
}
