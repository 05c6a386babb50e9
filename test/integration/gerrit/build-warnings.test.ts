/**
 * Build warnings in the report text (docs/gating.md#reporting), through the real server, the
 * real executor and the fake Gerrit: a script returns `warnings` in its results file, a playbook
 * returns `zuul.warnings` with `zuul_return` and a malformed `zuul.file_comments` the executor
 * drops with a warning of its own; the review's message and the buildset's stored message end
 * with one `Warning:` block holding all three.
 */
import { BASE_JOB, until } from '../../helpers/github-tenant';
import * as tenant from '../../helpers/gerrit-tenant';

const { checkPipeline, lastVote } = tenant;

jest.setTimeout(300_000);

const SCRIPT_RESULTS = { warnings: ['the script: 3 tests skipped'] };

const APP = {
  '.zuul.yaml': `
- job:
    name: script-warns
    run: warn.sh
- job:
    name: playbook-warns
    run: playbooks/warn.yaml
- project:
    check:
      jobs: [script-warns, playbook-warns]
`,
  'warn.sh': ['#!/bin/sh', `cat > "$SLUICE_RESULTS_FILE" <<'JSON'`, JSON.stringify(SCRIPT_RESULTS), 'JSON', ''].join(
    '\n',
  ),
  'playbooks/warn.yaml': [
    '- hosts: all',
    '  gather_facts: false',
    '  tasks:',
    '    - zuul_return:',
    '        data:',
    '          zuul:',
    '            warnings: ["the playbook: deprecated variable"]',
    '            file_comments: {"src.txt": [{line: "one", message: "not a line number"}]}',
    '',
  ].join('\n'),
  'README.md': 'app\n',
};

describe('Gerrit: build warnings in the review message', () => {
  let env: tenant.GerritTenant;

  beforeAll(async () => {
    env = await tenant.startGerritGateTenant({ pipelines: `${checkPipeline()}\n${BASE_JOB}`, app: APP });
  });

  afterAll(async () => {
    await env?.stop();
  });

  it('appends the warnings of the builds and of the executor', async () => {
    const change = await env.gerrit.upload('org/app', { subject: 'Warn me', files: { 'src.txt': 'a\n' } });
    await until('the check', () => lastVote(change, 'Verified') === 1);
    const review = change.reviews.find((r) => r.labels?.Verified === 1);
    const [body, warning] = review?.message?.split('\n\nWarning:\n') ?? [];
    expect(body).toContain('- script-warns');
    expect(body).toContain('- playbook-warns');
    expect(warning?.split('\n').sort()).toEqual([
      '  the playbook: deprecated variable',
      '  the script: 3 tests skipped',
      '  zuul_return zuul.file_comments is not a mapping of files to comments; it was dropped',
    ]);
    const rows: Array<{ message: string | null }> = await env.server.database
      .knex('buildsets')
      .where({ result: 'SUCCESS' })
      .select('message');
    expect(rows.map((row) => row.message)).toEqual([review?.message]);
  });
});
