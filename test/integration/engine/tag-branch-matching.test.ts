/**
 * Tags in branch matching end to end (docs/project-configuration.md#jobs), through the real server
 * (`buildApp()`: engine, work runner, merger, executor, git driver) on a copy of the quickstart:
 * the project has two branches, so its jobs and its own project stanzas get implied branch
 * matchers. A tag is matched on its full ref and on the branches that contain the tagged commit,
 * which the merger looks up as engine work: an annotated tag on a commit of `stable/1` only runs
 * the jobs matching `stable/1` (and the job matching `^refs/tags/v.*`); a tag on a commit on no
 * branch runs none of the project's implied-branch jobs.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { git } from '../../../src/sources/git-cli';
import { gitPoller } from '../../helpers/git-pollers';
import { QUICKSTART_TENANT, startQuickstartApp, type QuickstartApp } from '../../helpers/quickstart-app';

/** The config project: a `tag` pipeline, the base job, and a stanza for the project (no branch matcher). */
const CONFIG_YAML = `
- pipeline:
    name: tag
    manager: independent
    trigger:
      local:
        - event: ref-updated
          ref: ^refs/tags/.*$

- nodeset:
    name: single-node
    nodes:
      - name: worker
        label: local

- job:
    name: base
    parent: null
    nodeset: single-node
    timeout: 600

- job:
    name: central
    run: scripts/ok.sh

- project:
    name: example/hello
    tag:
      jobs:
        - central
        - tag-any
`;

/** The project's master configuration (the jobs and the stanza match master only once stable/1 exists). */
const MASTER_YAML = `
- job:
    name: tag-master
    run: scripts/lint.sh

- job:
    name: tag-any
    branches: ^refs/tags/v.*
    run: scripts/lint.sh

- job:
    name: on-stable
    branches: ^stable/.*
    run: scripts/lint.sh

- project:
    tag:
      jobs:
        - tag-master
`;

/** The project's stable/1 configuration. */
const STABLE_YAML = `
- job:
    name: tag-stable
    run: scripts/lint.sh

- project:
    tag:
      jobs:
        - tag-stable
        - tag-master
        - on-stable
`;

describe('tags in branch matching, end to end', () => {
  let qa: QuickstartApp;

  beforeAll(async () => {
    qa = await startQuickstartApp('sluice-tag-branches-', {
      projectFiles: { '.zuul.yaml': MASTER_YAML },
      deploymentFiles: {
        'repos/sluice-config/zuul.yaml': CONFIG_YAML,
        'repos/sluice-config/scripts/ok.sh': '#!/bin/sh\necho ok\n',
      },
    });
  }, 60_000);

  afterAll(async () => {
    await qa.stop();
  });

  /** A tag pushed and polled: its item's report in the tag pipeline. */
  async function pushTag(work: string, refspec: string, ref: string): Promise<void> {
    const poller = gitPoller(qa.app.roles, 'local');
    const before = qa.deltaCount();
    await git(work, ['push', '--quiet', 'origin', refspec]);
    expect((await poller?.pollNow())?.map((event) => [event.type, event.ref])).toEqual([['ref-updated', ref]]);
    expect(await qa.waitForReport('tag', before)).toMatchObject({ pipeline: 'tag', result: 'SUCCESS' });
  }

  /** The jobs built for a ref in the tag pipeline, sorted. */
  async function jobsOf(ref: string): Promise<string[]> {
    const rows: Array<{ job_name: string; result: string | null }> = await qa.database
      .knex('builds')
      .join('refs', 'refs.id', 'builds.ref_id')
      .where({ 'builds.tenant': QUICKSTART_TENANT, 'refs.ref': ref })
      .select('builds.job_name', 'builds.result');
    expect(rows.filter((row) => row.result !== 'SUCCESS')).toEqual([]);
    return rows.map((row) => row.job_name).sort();
  }

  const commit = (work: string, message: string): Promise<unknown> =>
    git(work, ['-c', 'user.name=Tagger', '-c', 'user.email=tagger@example.com', 'commit', '--quiet', '-m', message]);

  it('matches a tag on its ref and on the branches containing its commit', async () => {
    const poller = gitPoller(qa.app.roles, 'local');
    const layouts = qa.app.layoutManager;
    if (poller === undefined || layouts === undefined) {
      throw new Error('the app runs a layout manager and a git poller');
    }
    await poller.pollNow(); // baseline
    const work = mkdtempSync(path.join(qa.root, 'work-'));
    await git(qa.root, ['clone', '--quiet', qa.bareRepo, work]);
    // stable/1 branches off master with its own configuration; master moves on after it.
    await git(work, ['checkout', '--quiet', '-b', 'stable/1']);
    writeFileSync(path.join(work, '.zuul.yaml'), STABLE_YAML);
    await git(work, ['add', '--all']);
    await commit(work, 'Stable configuration');
    await git(work, ['tag', '-a', '-m', 'Release 1', 'v1']);
    await git(work, ['checkout', '--quiet', 'master']);
    writeFileSync(path.join(work, 'NOTES.md'), 'Notes\n');
    await git(work, ['add', '--all']);
    await commit(work, 'Notes on master');
    await git(work, ['push', '--quiet', 'origin', 'master', 'stable/1']);
    await layouts.reconfigure([QUICKSTART_TENANT]);
    expect(layouts.layout(QUICKSTART_TENANT)?.errors).toEqual([]);
    await poller.pollNow(); // the branch updates: not for the tag pipeline

    // 1. An annotated tag on the stable/1 commit: the stable/1 stanza and jobs, `on-stable`
    //    (^stable/.*, by the containing branch) and `tag-any` (by the full ref); not `tag-master`.
    await pushTag(work, 'v1', 'refs/tags/v1');
    expect(await jobsOf('refs/tags/v1')).toEqual(['central', 'on-stable', 'tag-any', 'tag-stable']);

    // 2. A tag on a commit on no branch: none of the project's stanzas (implied) matches; only the
    //    config project's stanza applies, and of its jobs both run (`tag-any` by the ref).
    await git(work, ['checkout', '--quiet', '--detach', 'master']);
    writeFileSync(path.join(work, 'DETACHED.md'), 'On no branch\n');
    await git(work, ['add', '--all']);
    await commit(work, 'On no branch');
    await pushTag(work, 'HEAD:refs/tags/v2', 'refs/tags/v2');
    expect(await jobsOf('refs/tags/v2')).toEqual(['central', 'tag-any']);

    // 3. A tag on master's first commit, contained in both branches: both stanzas apply.
    await pushTag(work, 'master~1:refs/tags/v3', 'refs/tags/v3');
    expect(await jobsOf('refs/tags/v3')).toEqual(['central', 'on-stable', 'tag-any', 'tag-master', 'tag-stable']);
  }, 120_000);
});
