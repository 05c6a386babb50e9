/**
 * File comments from builds (docs/gerrit.md#file-comments), through the real server and the fake
 * Gerrit: a job returns `zuul.file_comments` (its results file's data); the `check` review carries
 * them as inline comments on the files the patch set has (the fake refuses a review commenting on
 * another file, as Gerrit does), and the entries left out (another file, a malformed comment, a
 * file whose comments are no list) are warnings in the review's message; the build is not harmed.
 */
import { BASE_JOB, until } from '../../helpers/github-tenant';
import * as tenant from '../../helpers/gerrit-tenant';

const { checkPipeline, lastVote } = tenant;

jest.setTimeout(300_000);

const RETURNED = {
  data: {
    zuul: {
      file_comments: {
        'src.txt': [
          { line: 1, message: 'on the first line', level: 'warning' },
          {
            line: 2,
            message: 'over a range',
            range: { start_line: 1, start_character: 0, end_line: 2, end_character: 3 },
          },
          { line: 'two', message: 'a line that is no number' },
          { message: 'on the whole file' },
        ],
        '/COMMIT_MSG': [{ line: 1, message: 'on the commit message' }],
        'README.md': [{ line: 1, message: 'on a file the change does not touch' }],
        'other.txt': 'not a list',
      },
    },
  },
};

const APP = {
  '.zuul.yaml': `
- job:
    name: lint
    run: lint.sh
- project:
    check:
      jobs: [lint]
`,
  'lint.sh': ['#!/bin/sh', `cat > "$SLUICE_RESULTS_FILE" <<'JSON'`, JSON.stringify(RETURNED), 'JSON', ''].join('\n'),
  'README.md': 'app\n',
};

describe('Gerrit file comments from builds', () => {
  let env: tenant.GerritTenant;

  beforeAll(async () => {
    env = await tenant.startGerritGateTenant({ pipelines: `${checkPipeline()}\n${BASE_JOB}`, app: APP });
  });

  afterAll(async () => {
    await env?.stop();
  });

  it('sends the returned comments on the change’s files and warns of the others', async () => {
    const change = await env.gerrit.upload('org/app', { subject: 'Lint me', files: { 'src.txt': 'a\nbc\n' } });
    await until('the check', () => lastVote(change, 'Verified') === 1);
    const review = change.reviews.find((r) => r.labels?.Verified === 1);
    expect(review?.comments).toEqual({
      'src.txt': [
        { line: 1, message: 'on the first line' },
        {
          line: 2,
          message: 'over a range',
          range: { start_line: 1, start_character: 0, end_line: 2, end_character: 3 },
        },
        { message: 'on the whole file' },
      ],
      '/COMMIT_MSG': [{ line: 1, message: 'on the commit message' }],
    });
    const warning = review?.message?.split('\n\nWarning:\n')[1]?.split('\n');
    expect(warning).toEqual([
      '  Job lint: validation error in file comments of src.txt: "line" must be a whole number',
      '  Job lint: validation error in file comments of other.txt: not a list of comments',
      '  Comments left for invalid file README.md',
    ]);
    expect(review?.message).toContain('- lint');
  });
});
