/**
 * `Depends-On:` across drivers through the real server, the fake GitHub and the fake Gerrit
 * (docs/gating.md#depends-on-across-drivers): a pull request naming a Gerrit change by URL does
 * not enter `gate` while the change cannot (it lacks Gerrit's requirement), enters behind it in
 * the shared queue once the change is approved, and is merged after Gerrit submitted it; a pull
 * request behind a Gerrit change Gerrit refuses to submit is not merged.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually, itemsIn, startFakeGerrit } from '../../helpers/gerrit-tenant';
import { appFiles, BASE_JOB, startGitHubTenant, until, type GitHubTenant } from '../../helpers/github-tenant';
import type { FakeGerrit } from '../../helpers/fake-gerrit/server';

jest.setTimeout(300_000);

/** `gate` takes pull requests labelled `gate` (approved) and Gerrit changes on `Workflow +1` (with `Code-Review +2`). */
const PIPELINES = `
- pipeline:
    name: gate
    manager: dependent
    require:
      github:
        review:
          - type: approved
        open: true
      gerrit:
        open: true
        approval:
          - Code-Review: 2
    trigger:
      github:
        - event: pull_request
          action: labeled
          label: gate
      gerrit:
        - event: comment-added
          approval:
            - Workflow: 1
    success:
      github:
        status: success
        merge: true
      gerrit:
        Verified: 2
        submit: true
    failure:
      github:
        status: failure
      gerrit:
        Verified: -2
${BASE_JOB}`;

/** The job `unit` of appFiles, in `gate` only, and the shared queue `integrated`. */
function projectFiles(): Record<string, string> {
  return {
    ...appFiles(),
    '.zuul.yaml': `
- job:
    name: unit
    run: unit.sh
- project:
    queue: integrated
    merge-mode: merge
    gate:
      jobs: [unit]
`,
  };
}

const TENANT = `
- tenant:
    name: acme
    source:
      github:
        config-projects:
          - org/config:
              load-branch: main
        untrusted-projects:
          - org/app
      gerrit:
        untrusted-projects:
          - org/lib
`;

describe('Depends-On from a GitHub pull request to a Gerrit change', () => {
  let env: GitHubTenant;
  let gerrit: FakeGerrit;
  let root: string;
  let scratch: string;

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-across-'));
    scratch = mkdtempSync(path.join(os.tmpdir(), 'sluice-across-holds-'));
    const fake = await startFakeGerrit(root, { 'org/lib': projectFiles() });
    gerrit = fake.gerrit;
    env = await startGitHubTenant({
      repos: { 'org/config': { 'zuul.yaml': PIPELINES }, 'org/app': projectFiles() },
      tenantFile: TENANT,
      connections: { gerrit: fake.connection as never },
    });
    await gerrit.ssh.connected();
  });

  afterEach(() => {
    for (const file of readdirSync(scratch)) {
      rmSync(path.join(scratch, file));
    }
  });

  afterAll(async () => {
    await env?.stop();
    await gerrit?.stop();
    rmSync(root, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  const hold = (name: string) => {
    const file = path.join(scratch, name);
    writeFileSync(file, '');
    return file;
  };
  /** The outcome of the pull request's `labeled` trigger event, once the engine judged it. */
  const labeledOutcome = async (number: number) => {
    const rows: Array<{ payload: { change?: number; action?: string }; outcome: string | null }> =
      await env.server.database
        .knex('engine_events')
        .where({ event_type: 'pull_request' })
        .whereNotNull('processed')
        .select('payload', 'outcome');
    return rows.find((row) => row.payload.change === number && row.payload.action === 'labeled')?.outcome;
  };
  const approveAndLabel = async (number: number) => {
    await env.hub.review('org/app', number, 'reviewer', 'APPROVED');
    await env.hub.label('org/app', number, 'gate');
  };
  const pullNaming = (change: number, title: string) =>
    env.hub.openPull('org/app', {
      title,
      body: `Uses the library.\n\nDepends-On: ${gerrit.url}/c/org/lib/+/${change}`,
      files: { [`${title}.txt`]: `${title}\n` },
    });

  it('waits for the Gerrit change: not enqueued before it can be, behind it after, merged after its submit', async () => {
    const held = hold('library');
    const lib = await gerrit.upload('org/lib', { subject: 'Library part', files: { HOLD: held, 'lib.txt': 'l\n' } });
    const app = await pullNaming(lib.number, 'app');
    await approveAndLabel(app.number);
    await eventually('the label judged', async () => (await labeledOutcome(app.number)) !== undefined);
    // The Gerrit change lacks Code-Review +2: the pull request does not enter without it.
    expect(await labeledOutcome(app.number)).toMatch(/^entered 0/);
    expect(await itemsIn(env.server, 'gate')).toEqual([]);

    gerrit.review(lib.number, 'core', { 'Code-Review': 2, Workflow: 1 });
    await eventually('both in gate', async () => (await itemsIn(env.server, 'gate')).length === 2);
    const items = await itemsIn(env.server, 'gate');
    expect(items[0]).toBe(`${lib.number},1`);
    expect(items[1]).toBe(`${app.number},${app.headSha}`);
    expect([lib.status, app.merged]).toEqual(['NEW', false]);

    rmSync(held);
    await until('both merged', () => lib.status === 'MERGED' && app.merged);
    const submit = gerrit.requests.find((r) => r.method === 'POST' && r.path.endsWith('/submit'));
    const merge = env.hub.requests.find(
      (r) => r.method === 'PUT' && r.path === `/repos/org/app/pulls/${app.number}/merge` && r.status === 200,
    );
    expect(submit).toBeDefined();
    expect(merge).toBeDefined();
    expect((submit?.at ?? Infinity) <= (merge?.at ?? 0)).toBe(true);
  });

  it('does not merge a pull request behind a Gerrit change Gerrit refuses to submit', async () => {
    const held = hold('refused');
    const lib = await gerrit.upload('org/lib', { subject: 'Refused part', files: { HOLD: held, 'r.txt': 'r\n' } });
    lib.refuseSubmit = 'blocked by submit rule';
    const app = await pullNaming(lib.number, 'blocked');
    gerrit.review(lib.number, 'core', { 'Code-Review': 2, Workflow: 1 });
    await eventually('the change in gate', async () => (await itemsIn(env.server, 'gate')).length === 1);
    await approveAndLabel(app.number);
    await eventually('both in gate', async () => (await itemsIn(env.server, 'gate')).length === 2);
    rmSync(held);
    await eventually('gate empty', async () => (await itemsIn(env.server, 'gate')).length === 0);
    expect(lib.status).toBe('NEW');
    expect(app.merged).toBe(false);
    const merges = env.hub.requests.filter(
      (r) => r.method === 'PUT' && r.path === `/repos/org/app/pulls/${app.number}/merge`,
    );
    expect(merges).toEqual([]);
  });
});
