/**
 * `Depends-On:` URLs across drivers (src/drivers/depends-on.ts): every configured connection is
 * asked whether a URL is its own, whatever driver's change names it.
 */
import { changesNamedByUrls } from '../../../src/drivers/depends-on';
import { gerritChangeOfUrl, olderShapeNumber } from '../../../src/drivers/gerrit/change-source';
import { pullRequestOfUrl } from '../../../src/drivers/github/change-source';
import { mergeRequestOfUrl } from '../../../src/drivers/gitlab/change-source';
import { changeOfUrlOnAny } from '../../../src/server/driver-runtimes';

const connections = {
  hub: { driver: 'github', server: 'https://github.example.com', canonicalHostname: 'gh' },
  review: { driver: 'gerrit', server: 'review.example.com', baseurl: 'https://review.example.com/r' },
  lab: { driver: 'gitlab', server: 'gitlab.example.com', canonicalHostname: 'gl' },
  plain: { driver: 'git', baseurl: 'https://git.example.com' },
};
const changeOfUrl = changeOfUrlOnAny(connections);

describe('Depends-On URLs across drivers', () => {
  it('names each driver’s change by its own connection, whoever asks', () => {
    expect(changeOfUrl('https://github.example.com/org/app/pull/7')).toEqual({ project: 'gh/org/app', number: 7 });
    expect(changeOfUrl('https://review.example.com/r/c/org/lib/+/42/')).toEqual({
      project: 'review.example.com/org/lib',
      number: 42,
    });
    expect(changeOfUrl('https://gitlab.example.com/grp/sub/tool/-/merge_requests/3')).toEqual({
      project: 'gl/grp/sub/tool',
      number: 3,
    });
  });

  it('leaves URLs of no connection, other shapes and malformed ones unnamed', () => {
    expect(changeOfUrl('https://elsewhere.example.com/org/app/pull/7')).toBeNull();
    expect(changeOfUrl('https://github.example.com/org/app/issues/7')).toBeNull();
    expect(changeOfUrl('https://review.example.com/r/c/%E0%A4%A/+/1')).toBeNull();
    expect(changeOfUrl('https://git.example.com/org/app/pull/7')).toBeNull();
    expect(changeOfUrl('not a url')).toBeNull();
  });

  it('reads a description’s lines through every connection, then its own shape, each change once', () => {
    const text = [
      'Needs three.',
      '',
      'Depends-On: https://review.example.com/r/c/org/lib/+/42',
      'Depends-On: https://gitlab.example.com/grp/tool/merge_requests/3',
      'Depends-On: https://other.example.org/x/y/pull/9',
      'Depends-On: https://review.example.com/r/c/org/lib/+/42',
      'Depends-On: Iabc',
    ].join('\n');
    expect(changesNamedByUrls(text, changeOfUrl, pullRequestOfUrl)).toEqual([
      { project: 'review.example.com/org/lib', number: 42 },
      { project: 'gl/grp/tool', number: 3 },
      { project: 'other.example.org/x/y', number: 9 },
    ]);
    // A Gerrit change reads a foreign URL in its own shape only.
    expect(
      changesNamedByUrls('Depends-On: https://other.example.org/x/y/pull/9', changeOfUrl, gerritChangeOfUrl),
    ).toEqual([]);
    expect(mergeRequestOfUrl(new URL('https://gitlab.example.com/a/b/-/merge_requests/x'))).toBeNull();
  });
});

describe('Gerrit change URLs of the older shapes (no project)', () => {
  it('reads `<baseurl>/#/c/<number>` and `<baseurl>/<number>`, with or without a patch set', () => {
    const base = 'https://review.example.com/r';
    expect(olderShapeNumber('https://review.example.com/r/#/c/42', base)).toBe(42);
    expect(olderShapeNumber('https://review.example.com/r/#/c/42/3', base)).toBe(42);
    expect(olderShapeNumber('https://review.example.com/r/42', base)).toBe(42);
    expect(olderShapeNumber('https://review.example.com/r/42/', base)).toBe(42);
    expect(olderShapeNumber('http://127.0.0.1:8080/#/c/7', 'http://127.0.0.1:8080')).toBe(7);
    expect(olderShapeNumber('http://127.0.0.1:8080/7', 'http://127.0.0.1:8080/')).toBe(7);
  });

  it('reads nothing else: another host or prefix, the current shape, no number', () => {
    const base = 'https://review.example.com/r';
    expect(olderShapeNumber('https://other.example.com/r/#/c/42', base)).toBeNull();
    expect(olderShapeNumber('https://review.example.com/42', base)).toBeNull();
    expect(olderShapeNumber('https://review.example.com/rr/42', base)).toBeNull();
    expect(olderShapeNumber('https://review.example.com/r/c/org/lib/+/42', base)).toBeNull();
    expect(olderShapeNumber('https://review.example.com/r/#/q/42', base)).toBeNull();
    expect(olderShapeNumber('https://review.example.com/r/42abc', base)).toBeNull();
    expect(olderShapeNumber('https://review.example.com/r/', base)).toBeNull();
    expect(olderShapeNumber('not a url', base)).toBeNull();
  });
});
