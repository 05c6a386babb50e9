/**
 * File comments from builds (docs/gerrit.md#file-comments): which builds' comments a report
 * carries, what is left out as malformed (with a warning, never a throw), the files filter and
 * the warnings appended to the message.
 */
import type { ItemReport } from '../../../src/engine/ports/reporter';
import { commentsOnFiles, returnedFileComments, withWarnings } from '../../../src/drivers/gerrit/file-comments';

function report(jobs: Array<{ name: string; change?: number; returned: unknown }>, others = 0): ItemReport {
  return {
    ...(others > 0 ? { otherChanges: Array.from({ length: others }, () => ({}) as ItemReport['change']) } : {}),
    jobs: jobs.map((job) => ({
      name: job.name,
      result: 'SUCCESS',
      voting: true,
      change: job.change,
      build: { data: { zuul: { file_comments: job.returned } } } as never,
    })),
  } as unknown as ItemReport;
}

describe('returnedFileComments', () => {
  it('joins the comments of the jobs of the reported change, per file', () => {
    const found = returnedFileComments(
      report([
        { name: 'a', returned: { 'x.c': [{ line: 3, message: 'three' }] } },
        { name: 'b', returned: { 'x.c': [{ message: 'file' }], 'y.c': [{ line: 0, message: 'zero' }] } },
      ]),
    );
    expect(found).toEqual({
      comments: { 'x.c': [{ line: 3, message: 'three' }, { message: 'file' }], 'y.c': [{ line: 0, message: 'zero' }] },
      warnings: [],
    });
  });

  it('leaves out the jobs of a cycle’s other changes', () => {
    const found = returnedFileComments(
      report(
        [
          { name: 'other', change: 0, returned: { 'x.c': [{ message: 'not mine' }] } },
          { name: 'mine', change: 1, returned: { 'x.c': [{ message: 'mine' }] } },
        ],
        1,
      ),
    );
    expect(found.comments).toEqual({ 'x.c': [{ message: 'mine' }] });
  });

  it('warns of each malformed entry and keeps the others', () => {
    const found = returnedFileComments(
      report([
        { name: 'j', returned: ['not', 'a', 'mapping'] },
        {
          name: 'k',
          returned: {
            'x.c': [
              'text',
              { line: 1 },
              { line: -1, message: 'm' },
              { line: 1, message: 'm', colour: 'red' },
              { line: 1, message: 'm', range: { start_line: 1, end_line: 2 } },
              { line: 1, message: 'kept', level: 'error' },
            ],
            'y.c': { line: 1 },
          },
        },
      ]),
    );
    expect(found.comments).toEqual({ 'x.c': [{ line: 1, message: 'kept' }] });
    expect(found.warnings).toEqual([
      'Job j: validation error in file comments: not a mapping of files to comments',
      'Job k: validation error in file comments of x.c: a comment is not a mapping',
      'Job k: validation error in file comments of x.c: "message" must be a string',
      'Job k: validation error in file comments of x.c: "line" must be a whole number',
      'Job k: validation error in file comments of x.c: unknown key "colour"',
      'Job k: validation error in file comments of x.c: "range" must have whole numbers start_line, start_character, end_line, end_character',
      'Job k: validation error in file comments of y.c: not a list of comments',
    ]);
  });
});

describe('commentsOnFiles and withWarnings', () => {
  it('keeps the files the patch set has and warns of the others', () => {
    const comments = { 'x.c': [{ message: 'a' }], 'gone.c': [{ message: 'b' }] };
    expect(commentsOnFiles(comments, ['/COMMIT_MSG', 'x.c'])).toEqual({
      comments: { 'x.c': [{ message: 'a' }] },
      warnings: ['Comments left for invalid file gone.c'],
    });
  });

  it('appends the warnings to a message, one a line', () => {
    expect(withWarnings('Build succeeded.', ['one', 'two'])).toBe('Build succeeded.\n\nWarning:\n  one\n  two');
    expect(withWarnings('Build succeeded.', [])).toBe('Build succeeded.');
    expect(withWarnings(undefined, ['one'])).toBeUndefined();
  });
});
