/**
 * `POST T/project/{p}/freeze-pipeline` (docs/rest.md#deliberate-differences-from-the-reference) through a real server
 * over real git repositories: branches get the current configuration, tags too (matched on the
 * branches containing their commit); change refs get their changed files
 * matched against file matchers and, for untrusted projects, their proposed configuration
 * merged into the branch tip and applied speculatively; every bad input has its 4xx.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { git as gitCli } from '../../src/sources/git-cli';
import { createGitFixture, type GitFixture } from '../helpers/git-fixtures';
import { startTestServer, type TestServer } from '../helpers/server';

type GraphRecord = { name: string; dependencies: Array<{ name: string; soft: boolean }> };

const COMMON_CONFIG = `
- pipeline:
    name: check
    manager: independent
    trigger: {}

- job:
    name: base
    parent: null
    run: base.sh

- job:
    name: config-check
    run: check.sh

- project:
    check:
      jobs:
        - config-check
`;

/** Job definitions first, the project stanza last, so the two can change without conflicting. */
const projectConfig = (extraJobs = '', extraEntries = '') => `
- job:
    name: unit
    run: unit.sh

- job:
    name: docs
    run: docs.sh
    files:
      - ^docs/.*
${extraJobs}
# ---------------------------------------------------------------------------------------------
# (a spacer keeps edits of the jobs above and of the stanza below apart for three-way merges)
# ---------------------------------------------------------------------------------------------

- project:
    check:
      jobs:
        - unit
        - docs${extraEntries}
`;

describe('REST freeze-pipeline', () => {
  let git: GitFixture;
  let server: TestServer;
  let firstMaster: string;

  beforeAll(async () => {
    git = createGitFixture();
    await git.createProject('common-config', { 'zuul.yaml': COMMON_CONFIG });
    firstMaster = await git.createProject('org/project', {
      '.zuul.yaml': projectConfig(),
      'src/main.c': 'int main;\n',
    });
    await git.commit('org/project', {
      parent: 'master',
      ref: 'refs/heads/stable',
      files: { 'stable.txt': 'stable\n' },
    });
    const tenantFile = path.join(git.root, 'main.yaml');
    writeFileSync(
      tenantFile,
      `- tenant:
    name: tenant-one
    source:
      gerrit:
        config-projects:
          - common-config
        untrusted-projects:
          - org/project
`,
    );
    server = await startTestServer({
      config: {
        tenantConfig: tenantFile,
        connections: {
          gerrit: { driver: 'git', baseurl: git.baseDir, pollInterval: 3600, canonicalHostname: 'review.example.com' },
        },
      },
    });
  }, 120_000);

  afterAll(async () => {
    await server.stop();
    git.cleanup();
  });

  const T = '/api/tenant/tenant-one';

  function freeze(
    body: unknown,
    options: { project?: string; contentType?: string; shape?: string } = {},
  ): Promise<Response> {
    return fetch(`${server.url}${T}/project/${options.project ?? 'org/project'}/freeze-pipeline`, {
      method: 'POST',
      headers: {
        'Content-Type': options.contentType ?? 'application/json',
        'X-Sluice-Api-Shape': options.shape ?? 'current',
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  async function graph(ref: string, project = 'org/project'): Promise<GraphRecord[]> {
    const res = await freeze({ ref, pipeline: 'check' }, { project });
    const text = await res.text();
    expect({ status: res.status, text }).toEqual({ status: 200, text: expect.any(String) as unknown });
    return JSON.parse(text) as GraphRecord[];
  }

  const looseObjects = async (project: string): Promise<string> =>
    (await gitCli(path.join(git.baseDir, `${project}.git`), ['count-objects'])).stdout;

  const names = (records: GraphRecord[]) => records.map((r) => r.name);

  async function expectError(
    res: Response,
    status: number,
    error: string,
    description: string | RegExp,
  ): Promise<void> {
    expect(res.status).toBe(status);
    const body = (await res.json()) as { error: string; description: string };
    expect(body.error).toBe(error);
    if (typeof description === 'string') {
      expect(body.description).toBe(description);
    } else {
      expect(body.description).toMatch(description);
    }
  }

  it('a branch gets the current configuration with file matchers not evaluated (like freeze-jobs)', async () => {
    const records = await graph('master');
    expect(records).toEqual([
      { name: 'unit', dependencies: [] },
      { name: 'docs', dependencies: [] },
    ]);
    expect(await graph('refs/heads/master')).toEqual(records);
    const freezeJobs = await fetch(`${server.url}${T}/pipeline/check/project/org/project/branch/master/freeze-jobs`);
    expect(await freezeJobs.json()).toEqual(records);
  });

  it('a change is matched against its changed files', async () => {
    await git.pushChange('org/project', 1, 1, { parent: 'master', files: { 'src/main.c': 'int main(void);\n' } });
    expect(names(await graph('refs/changes/01/1/1'))).toEqual(['unit']);
    await git.pushChange('org/project', 2, 1, { parent: 'master', files: { 'docs/index.md': '# Docs\n' } });
    expect(names(await graph('refs/changes/02/2/1'))).toEqual(['unit', 'docs']);
  });

  it('an untrusted change proposing configuration gets it applied, without touching the current layout', async () => {
    const proposed = projectConfig(
      '\n- job:\n    name: lint\n    run: lint.sh\n    dependencies:\n      - unit\n',
      '\n        - lint',
    );
    await git.pushChange('org/project', 3, 1, { parent: 'master', files: { '.zuul.yaml': proposed } });
    expect(await graph('refs/changes/03/3/1')).toEqual([
      { name: 'unit', dependencies: [] },
      { name: 'lint', dependencies: [{ name: 'unit', soft: false }] },
    ]);
    expect(names(await graph('master'))).toEqual(['unit', 'docs']);
  });

  it('repeated requests for one change reuse its speculative layout', async () => {
    const manager = server.app.layoutManager;
    const layout = manager?.layout('tenant-one');
    const project =
      layout === undefined ? undefined : [...layout.projects.values()].find((p) => p.name === 'org/project');
    if (manager === undefined || layout === undefined || project === undefined) {
      throw new Error('tenant-one is not loaded');
    }
    const speculative = async (ref: string) => {
      const proposed = await manager.proposedLayout(layout, project, ref);
      if (proposed.status !== 'ok' || !proposed.speculative) {
        throw new Error(`${ref}: expected a speculative layout, got ${JSON.stringify(proposed)}`);
      }
      return proposed.layout;
    };
    const first = await speculative('refs/changes/03/3/1');
    expect(await speculative('refs/changes/03/3/1')).toBe(first);
    await git.pushChange('org/project', 5, 1, {
      parent: 'master',
      files: { '.zuul.yaml': projectConfig('\n- job:\n    name: five\n    run: five.sh\n') },
    });
    expect(await speculative('refs/changes/05/5/1')).not.toBe(first);
    expect(await speculative('refs/changes/03/3/1')).toBe(first);
  });

  it('the proposed configuration is merged into the branch tip, which may have moved since', async () => {
    // The change is based on the first master commit; master then gains the `extra` job.
    const change = projectConfig('', '\n        - extra');
    await git.pushChange('org/project', 4, 1, { parent: firstMaster, files: { '.zuul.yaml': change } });
    await git.commit('org/project', {
      parent: 'master',
      ref: 'refs/heads/master',
      files: { '.zuul.yaml': projectConfig('\n- job:\n    name: extra\n    run: extra.sh\n') },
    });
    await server.app.layoutManager?.reconfigure();
    expect(names(await graph('master'))).toEqual(['unit', 'docs']);
    const objectsBefore = await looseObjects('org/project');
    expect(names(await graph('refs/changes/04/4/1'))).toEqual(['unit', 'extra']);
    // The merge's objects went to a scratch directory, not into the repository.
    expect(await looseObjects('org/project')).toBe(objectsBefore);
  });

  it('a change that does not merge -> 409; proposed configuration errors -> 422', async () => {
    const conflicting = projectConfig('\n- job:\n    name: extra\n    run: other.sh\n');
    await git.pushChange('org/project', 5, 1, { parent: firstMaster, files: { '.zuul.yaml': conflicting } });
    await expectError(
      await freeze({ ref: 'refs/changes/05/5/1', pipeline: 'check' }),
      409,
      'Conflict',
      'Change 5,1 does not merge into branch master: conflicts in .zuul.yaml',
    );
    await git.pushChange('org/project', 6, 1, {
      parent: 'master',
      files: { '.zuul.yaml': projectConfig('', '\n        - missing-job') },
    });
    await expectError(
      await freeze({ ref: 'refs/changes/06/6/1', pipeline: 'check' }),
      422,
      'JobGraphError',
      /^The configuration proposed by refs\/changes\/06\/6\/1 has errors: org\/project master \.zuul\.yaml line \d+: .*missing-job/,
    );
  });

  it('a change of a trusted project is matched but its configuration is not applied', async () => {
    const proposed = `${COMMON_CONFIG}        - base\n`;
    await git.pushChange('common-config', 7, 1, { parent: 'master', files: { 'zuul.yaml': proposed } });
    expect(names(await graph('refs/changes/07/7/1', 'common-config'))).toEqual(['config-check']);
  });

  it('a change follows its Target-Branch trailer', async () => {
    await git.pushChange('org/project', 8, 1, {
      parent: 'stable',
      files: { 'src/main.c': 'x\n' },
      message: 'Fix\n\nTarget-Branch: stable',
    });
    expect(names(await graph('refs/changes/08/8/1'))).toEqual(['unit']);
    await git.pushChange('org/project', 9, 1, {
      parent: 'master',
      files: { 'src/main.c': 'y\n' },
      message: 'Fix\n\nTarget-Branch: nope',
    });
    await expectError(
      await freeze({ ref: 'refs/changes/09/9/1', pipeline: 'check' }),
      404,
      'NotFound',
      'Change 9,1 targets branch nope, which does not exist in project org/project',
    );
  });

  it('a tag is matched on the branches containing its commit (docs/project-configuration.md#jobs)', async () => {
    const bare = path.join(git.baseDir, 'org/project.git');
    await gitCli(bare, ['tag', 'v-stable', await git.revParse('org/project', 'stable')]);
    // Two branches: the project's own stanzas have implied matchers; stable's applies.
    expect(names(await graph('refs/tags/v-stable'))).toEqual(['unit', 'docs']);
    // A commit on no branch: none of the project's stanzas applies, it is in no pipeline.
    await git.commit('org/project', { parent: 'master', ref: 'refs/tags/v-none', files: { 'none.txt': 'none\n' } });
    expect(await graph('refs/tags/v-none')).toEqual([]);
  });

  it('the earlier shape answers the same records', async () => {
    const res = await freeze({ ref: 'master', pipeline: 'check' }, { shape: 'earlier' });
    expect(res.headers.get('x-sluice-api-shape')).toBe('earlier');
    expect(names((await res.json()) as GraphRecord[])).toEqual(['unit', 'docs']);
  });

  it.each([
    [{ pipeline: 'check' }, 400, 'BadRequest', 'Invalid request body: missing ref'],
    [{ ref: 'master' }, 400, 'BadRequest', 'Invalid request body: missing pipeline'],
    [{ ref: 1, pipeline: 'check' }, 400, 'BadRequest', 'Invalid request body: ref and pipeline must be strings'],
    [
      { ref: 'refs/notes/v1', pipeline: 'check' },
      400,
      'BadRequest',
      'Invalid ref "refs/notes/v1": expected a branch name, refs/heads/<branch>, a tag refs/tags/<tag> or a change ref refs/changes/NN/N/P',
    ],
    [
      { ref: 'refs/changes/1/1/1', pipeline: 'check' },
      400,
      'BadRequest',
      'Invalid ref "refs/changes/1/1/1": expected a branch name, refs/heads/<branch>, a tag refs/tags/<tag> or a change ref refs/changes/NN/N/P',
    ],
    [{ ref: 'refs/tags/v1', pipeline: 'check' }, 404, 'NotFound', 'Unknown ref refs/tags/v1 in project org/project'],
    [{ ref: 'nope', pipeline: 'check' }, 404, 'NotFound', 'Unknown ref nope in project org/project'],
    [
      { ref: 'refs/changes/99/99/1', pipeline: 'check' },
      404,
      'NotFound',
      'Unknown ref refs/changes/99/99/1 in project org/project',
    ],
    [{ ref: 'master', pipeline: 'gate' }, 404, 'NotFound', 'Unknown pipeline'],
  ])('body %j -> %i %s', async (body, status, error, description) => {
    await expectError(await freeze(body), status, error, description);
  });

  it('unknown tenant, unknown project, wrong content type, malformed JSON, wrong method', async () => {
    const unknownTenant = await fetch(`${server.url}/api/tenant/nobody/project/org/project/freeze-pipeline`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ref: 'master', pipeline: 'check' }),
    });
    await expectError(unknownTenant, 404, 'NotFound', 'Tenant not found');
    await expectError(
      await freeze({ ref: 'master', pipeline: 'check' }, { project: 'org/nope' }),
      404,
      'NotFound',
      'Unknown project',
    );
    expect((await freeze({ ref: 'master', pipeline: 'check' }, { contentType: 'text/plain' })).status).toBe(415);
    await expectError(await freeze('{"ref":'), 400, 'BadRequest', 'Invalid JSON document');
    const get = await fetch(`${server.url}${T}/project/org/project/freeze-pipeline`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('GraphQL: Tenant.freezePipeline returns typed errors', async () => {
    const query = `query ($ref: String!) { tenant(name: "tenant-one") { ... on Tenant { freezePipeline(project: "org/project", pipeline: "check", ref: $ref) {
      __typename ... on JobGraph { jobs { name } } ... on Error { message } } } } }`;
    const ok = await server.graphql<{ tenant: { freezePipeline: { jobs: Array<{ name: string }> } } }>(query, {
      ref: 'refs/changes/01/1/1',
    });
    expect(ok.data?.tenant.freezePipeline.jobs).toEqual([{ name: 'unit' }]);
    const missing = await server.graphql<{ tenant: { freezePipeline: { __typename: string; message: string } } }>(
      query,
      { ref: 'refs/heads/nope' },
    );
    expect(missing.data?.tenant.freezePipeline).toEqual({
      __typename: 'NotFoundError',
      message: 'Unknown ref refs/heads/nope in project org/project',
    });
  });
});
